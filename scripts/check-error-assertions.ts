// Fails when a test asserts an error status without checking the error's code: every error answer
// carries a `code` (src/http/error-codes.ts), and two different errors often share a status (409 is
// invalid_transition, conflict, idempotency_key_in_use, …), so a bare status says little.
// An assertion like `assert.equal(res.statusCode, 404)` (or `.status`, or `strictEqual`), or an
// expected error given as `assert.rejects(…, { status: 404 })` (or `throws`), counts as checked when the assertion itself or one of the few lines after it (up to the end of its block or
// the next status assertion) checks a code: `.code`, `code:` in an expected body, `errorCode`, or a
// helper such as `assertError(…)` / `assertErrorBody(…)` that takes the code. Where the answer has no
// JSON body (a raw socket, an HTML page, a status a test receiver gave), say so on the line or the line
// above: `// status only: <why>`.
// Prints every unchecked assertion as file:line, one per line.
//   node scripts/check-error-assertions.ts [root]
import { globSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** How many lines after a status assertion may hold its code check. */
export const WINDOW_LINES = 4;

const ASSERTION = /\bassert\.(?:equal|strictEqual|(rejects|throws))\(/g;
/** The expected error of `assert.rejects`/`assert.throws` given as an object with a literal status. */
const MATCHER_STATUS = /^\{[\s\S]*\bstatus\s*:\s*(\d{3})\b/;
const STATUS_ARGUMENT = /(?:^|[.\s(])(?:status|statusCode)\s*$/;
const CODE_CHECK = /\.code\b|\bcode\s*:|['"]code['"]|\berrorCode\b|\bassertError\w*\(/;
const OPT_OUT = /\/\/\s*status only:\s*\S/;

export interface Offender {
  line: number;
  text: string;
}

/**
 * The source with the insides of strings, template literals, regular expressions and comments blanked
 * out (lines kept), so that only code is searched and split: an assertion quoted in a string is not one.
 */
export function codeOnly(source: string): string {
  const out = source.split('');
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (out[i] !== '\n') out[i] = ' ';
  };
  // Each open `${` of a template literal, by the brace depth it was opened at.
  const templates: number[] = [];
  let depth = 0;
  let previous = '';
  for (let i = 0; i < source.length; i++) {
    const ch = source[i] as string;
    if (ch === '/' && (source[i + 1] === '/' || source[i + 1] === '*')) {
      const close = source[i + 1] === '/' ? source.indexOf('\n', i) : source.indexOf('*/', i + 2);
      const end = close < 0 ? source.length : source[i + 1] === '/' ? close : close + 2;
      blank(i, end);
      i = end - 1;
      continue;
    }
    if (ch === '/' && (previous === '' || '(,=:[!&|?{};'.includes(previous))) {
      let j = i + 1;
      for (let inClass = false; j < source.length && source[j] !== '\n'; j++) {
        if (source[j] === '\\') j++;
        else if (source[j] === '[') inClass = true;
        else if (source[j] === ']') inClass = false;
        else if (source[j] === '/' && !inClass) break;
      }
      blank(i + 1, j);
      i = j;
      previous = '/';
      continue;
    }
    if (ch === "'" || ch === '"' || ch === '`' || (ch === '}' && templates.at(-1) === depth)) {
      const quote = ch === '}' ? '`' : ch;
      if (ch === '}') templates.pop();
      let j = i + 1;
      for (; j < source.length && source[j] !== quote; j++) {
        if (source[j] === '\\') j++;
        else if (quote === '`' && source[j] === '$' && source[j + 1] === '{') {
          templates.push(depth);
          j++;
          break;
        }
      }
      blank(i + 1, source[j] === '{' ? j - 1 : j);
      i = j;
      previous = quote;
      continue;
    }
    if (ch === '{') depth++;
    else if (ch === '}') depth--;
    if (!/\s/.test(ch)) previous = ch;
  }
  return out.join('');
}

/** The first `count` top-level arguments of the call whose `(` is at `open` in code-only text. */
function callArguments(code: string, open: number, count: number): string[] | null {
  const args: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open; i < code.length; i++) {
    const ch = code[i] as string;
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (--depth === 0) return args.length < count ? [...args, code.slice(start, i)] : args;
    } else if (ch === ',' && depth === 1 && args.length < count) {
      args.push(code.slice(start, i));
      start = i + 1;
    }
  }
  return null;
}

/** Whether a line of code closes more blocks than it opens (it ends the block the assertion is in). */
function closesBlock(line: string): boolean {
  let depth = 0;
  for (const ch of line) {
    if (ch === '{') depth++;
    else if (ch === '}' && --depth < 0) return true;
  }
  return false;
}

interface StatusAssertion {
  /** Where `assert.` starts, and just past the call's `)`. */
  start: number;
  end: number;
  status: number;
}

/**
 * Every `assert.equal(<…status>, <3-digit literal>…)` of the code, success statuses too, and every
 * `assert.rejects(…, { status: <literal>, … })` (or `throws`).
 */
function statusAssertions(code: string): StatusAssertion[] {
  return [...code.matchAll(ASSERTION)].flatMap((match) => {
    const open = (match.index as number) + match[0].length - 1;
    const [actual, expected] = (callArguments(code, open, 2) ?? []).map((arg) => arg.trim());
    if (actual === undefined || expected === undefined) return [];
    const matcher = match[1] !== undefined ? MATCHER_STATUS.exec(expected) : null;
    const status = matcher ? matcher[1] : STATUS_ARGUMENT.test(actual) && /^\d{3}$/.test(expected) ? expected : undefined;
    if (status === undefined) return [];
    let end = open;
    for (let depth = 0; end < code.length; end++) {
      if ('([{'.includes(code[end] as string)) depth++;
      else if (')]}'.includes(code[end] as string) && --depth === 0) break;
    }
    return [{ start: match.index as number, end: end + 1, status: Number(status) }];
  });
}

function lineOf(source: string, index: number): number {
  let line = 0;
  for (let i = source.indexOf('\n'); i >= 0 && i < index; i = source.indexOf('\n', i + 1)) line++;
  return line;
}

/** The error-status assertions of one test file that no code check follows. */
export function uncheckedErrorStatuses(source: string): Offender[] {
  const code = codeOnly(source);
  const lines = source.split('\n');
  const codeLines = code.split('\n');
  const assertions = statusAssertions(code);
  const statusLines = new Set(assertions.map((assertion) => lineOf(code, assertion.start)));
  const offenders: Offender[] = [];
  for (const assertion of assertions) {
    if (assertion.status < 400) continue;
    const first = lineOf(code, assertion.start);
    const last = lineOf(code, assertion.end);
    if (OPT_OUT.test(lines[first] ?? '') || OPT_OUT.test(lines[first - 1] ?? '')) continue;
    // The assertion's own line(s), then the lines after it up to the next status assertion (which is
    // about another answer) or the end of the block.
    const window = lines.slice(first, last + 1);
    for (let n = last + 1; n <= last + WINDOW_LINES && n < lines.length; n++) {
      const line = codeLines[n] as string;
      const stop = statusLines.has(n) ? line.search(/\bassert\./) : closesBlock(line) ? line.indexOf('}') : -1;
      if (stop >= 0) {
        window.push((lines[n] as string).slice(0, stop));
        break;
      }
      window.push(lines[n] as string);
    }
    if (!window.some((text) => CODE_CHECK.test(text))) offenders.push({ line: first + 1, text: (lines[first] as string).trim() });
  }
  return offenders;
}

/** Every unchecked error-status assertion under `root`, as `file:line: text`. */
export function checkErrorAssertions(root: string): string[] {
  const files = globSync('**/*.test.ts', { cwd: root }).sort();
  return files.flatMap((file) =>
    uncheckedErrorStatuses(readFileSync(path.join(root, file), 'utf8')).map(
      (offender) => `${path.join(path.relative(process.cwd(), root), file)}:${offender.line}: ${offender.text}`,
    ),
  );
}

if (import.meta.main) {
  const offenders = checkErrorAssertions(path.resolve(process.argv[2] ?? 'test'));
  for (const offender of offenders) console.log(offender);
  if (offenders.length > 0) {
    console.error(`${offenders.length} error-status assertions do not check the error's code (see the top of this script).`);
    process.exit(1);
  }
}
