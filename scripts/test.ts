// The test command: runs the suite on SQLite and, when it is reachable, on PostgreSQL, in parallel.
// Under CI=true a missing PostgreSQL, Redis or Chromium is a failure, never a silent skip.
//   npm test                       every suite
//   npm test -- test/http/x.test.ts  only these files
//   TEST_DB=sqlite npm test        one database only
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, globSync, readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ci, postgresAdminUrl, redisUrl } from '../test/support/env.ts';
import { prepareTemplates } from '../test/support/templates.ts';

const ONCE = /^test\/(unit|browser)\//;
/**
 * Compiles the console's .tsx templates as they are imported (ADR 0023), in the test files and, by
 * NODE_OPTIONS, which it adds itself to, in every process they start.
 */
const tsxLoader = new URL('../bin/tsx-loader.js', import.meta.url).href;

function reachable(url: string, fallbackPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname || '127.0.0.1', port: Number(port) || fallbackPort });
    socket.setTimeout(2000);
    socket.once('connect', () => resolve(true));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => resolve(false));
  }).finally(() => undefined) as Promise<boolean>;
}

interface Suite {
  name: string;
  files: string[];
  env: Record<string, string>;
}

/** How long one suite may run before it is stopped and failed (seconds); CI's whole run has 90 minutes. */
const SUITE_TIMEOUT_S = Number(process.env.TEST_SUITE_TIMEOUT ?? 2700);
if (!Number.isFinite(SUITE_TIMEOUT_S) || SUITE_TIMEOUT_S <= 0) {
  console.error(`TEST_SUITE_TIMEOUT must be a number of seconds above 0, not "${process.env.TEST_SUITE_TIMEOUT}".`);
  process.exit(2);
}

/** The test files a suite's process tree is running now (Linux /proc; empty elsewhere). */
function runningFiles(pid: number): string[] {
  const files = new Set<string>();
  const visit = (id: number) => {
    try {
      const args = readFileSync(`/proc/${id}/cmdline`, 'utf8').split('\0');
      for (const arg of args) if (arg.endsWith('.test.ts') && !args.includes('--test')) files.add(arg);
      for (const task of readdirSync(`/proc/${id}/task`)) {
        for (const child of readFileSync(`/proc/${id}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) visit(Number(child));
      }
    } catch {
      // The process ended while it was read, or this is not Linux.
    }
  };
  visit(pid);
  return [...files].sort();
}

/**
 * A test that runs past this is failed as hung. Not a speed check: under CI, with both suites and
 * Chromium side by side on 2 cores, tests took up to 116 s against the 120 s this was.
 */
const TEST_TIMEOUT_MS = 600_000;

/**
 * Runs one suite in its own process group, printing its lines as they come (prefixed by the suite's
 * name), so that a run cut short still shows how far it went. A suite past SUITE_TIMEOUT_S (a file
 * that left a handle open and so never exits, say) is killed and failed, naming the files it was
 * still running. Not `--test-force-exit`: a file's process that exits so can drop the report of its
 * last tests, passed or failed, and the run still ends with exit code 0 (nodejs/node#64833).
 */
function run(suite: Suite): Promise<{ suite: Suite; code: number; output: string; seconds: number; timedOut: string[] | null }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        `--import=${tsxLoader}`,
        '--test',
        '--test-concurrency=2',
        `--test-timeout=${TEST_TIMEOUT_MS}`,
        '--test-reporter=spec',
        ...suite.files,
      ],
      { env: { NODE_COMPILE_CACHE: compileCache, ...process.env, ...suite.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    let output = '';
    let partial = '';
    const prefix = `[${suite.name}] `;
    const take = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      if (lines.length) process.stdout.write(`${lines.map((line) => prefix + line).join('\n')}\n`);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    let timedOut: string[] | null = null;
    const deadline = setTimeout(() => {
      timedOut = runningFiles(child.pid ?? 0);
      process.stdout.write(`${prefix}did not finish within ${SUITE_TIMEOUT_S} s; still running: ${timedOut.join(', ') || '(unknown)'}\n`);
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, SUITE_TIMEOUT_S * 1000);
    child.on('close', (code) => {
      clearTimeout(deadline);
      if (partial) process.stdout.write(`${prefix + partial}\n`);
      resolve({ suite, code: timedOut ? 1 : (code ?? 1), output, seconds: (Date.now() - started) / 1000, timedOut });
    });
  });
}

const requested = process.argv.slice(2);
const all = (requested.length ? requested : globSync('test/**/*.test.ts')).map((f) => f.replace(/\\/g, '/')).sort();
const perDatabase = all.filter((f) => !ONCE.test(f));
const once = all.filter((f) => ONCE.test(f));

const notes: string[] = [];
const [postgres, redis] = await Promise.all([reachable(postgresAdminUrl, 5432), reachable(redisUrl, 6379)]);
const chromium = existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');
const missing = [!postgres && 'PostgreSQL', !redis && 'Redis', !chromium && 'Chromium'].filter(Boolean) as string[];
if (missing.length && ci) {
  console.error(`CI=true and not available: ${missing.join(', ')}. Start them (see .ci/run) — nothing is skipped under CI.`);
  process.exit(1);
}
if (!redis) notes.push(`Redis not reachable at ${redisUrl}: the tests that need it are SKIPPED.`);
if (!chromium) notes.push('Chromium not installed (/usr/bin/chromium): the browser test is SKIPPED.');

const only = process.env.TEST_DB;
if (only !== undefined && only !== 'sqlite' && only !== 'postgres') {
  console.error(`TEST_DB must be sqlite or postgres (or unset for both), not "${only}".`);
  process.exit(2);
}
if (only === 'postgres' && !postgres) {
  console.error(`TEST_DB=postgres, but PostgreSQL is not reachable at ${postgresAdminUrl}.`);
  process.exit(1);
}
// Every Node.js process of the suites (test files, the servers and commands they start) keeps what it
// compiled of each module for the next one, as `academy` itself does (bin/academy.js).
const compileCache = process.env.NODE_COMPILE_CACHE || path.resolve('node_modules/.cache/academy-compile');
const suites: Suite[] = [];
if (perDatabase.length && only !== 'postgres') {
  suites.push({
    name: 'sqlite',
    files: [...perDatabase, ...once],
    env: { TEST_DB: 'sqlite', TEST_REDIS: redis ? '1' : '0', TEST_CHROMIUM: chromium ? '1' : '0' },
  });
} else if (once.length) {
  suites.push({
    name: 'once',
    files: once,
    env: { TEST_DB: 'sqlite', TEST_REDIS: redis ? '1' : '0', TEST_CHROMIUM: chromium ? '1' : '0' },
  });
}
if (perDatabase.length && only !== 'sqlite') {
  // PostgreSQL needs a secret key every process shares (the SQLite suite keeps one in each data directory).
  const secretKey = process.env.ACADEMY_SECRET_KEY || randomBytes(32).toString('base64');
  if (postgres) {
    suites.push({
      name: 'postgres',
      files: perDatabase,
      env: { TEST_DB: 'postgres', TEST_REDIS: redis ? '1' : '0', ACADEMY_SECRET_KEY: secretKey },
    });
  } else notes.push(`PostgreSQL not reachable at ${postgresAdminUrl}: the PostgreSQL suite is SKIPPED (SQLite only).`);
}

if (suites.length === 0) {
  console.error('No test suite to run: no test files matched, or they need a database that was not selected.');
  process.exit(1);
}
for (const note of notes) console.log(`NOTE: ${note}`);
const templates = await prepareTemplates({
  sqlite: suites.some((s) => s.env.TEST_DB === 'sqlite'),
  postgres: suites.some((s) => s.env.TEST_DB === 'postgres'),
});
for (const suite of suites) Object.assign(suite.env, templates.env);
console.log(`Running ${suites.map((s) => `${s.name} (${s.files.length} files)`).join(' and ')} in parallel...`);
const results = await Promise.all(suites.map(run)).finally(() => templates.drop());
let failed = false;
console.log('\n======== summary ========');
for (const result of results) {
  const ok = result.code === 0;
  failed ||= !ok;
  const counts = /ℹ pass (\d+)[\s\S]*?ℹ fail (\d+)[\s\S]*?ℹ skipped (\d+)/.exec(result.output);
  const detail = result.timedOut
    ? `stopped after ${SUITE_TIMEOUT_S} s, still running: ${result.timedOut.join(', ') || '(unknown)'}`
    : counts
      ? `pass ${counts[1]}, fail ${counts[2]}, skipped ${counts[3]}`
      : '';
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${result.suite.name.padEnd(9)} ${detail}  (${result.seconds.toFixed(1)} s)`);
}
// The failures again, after the summary: the suites' output is interleaved, and a log's tail (all
// that a CI page may show) would otherwise end with the other suite's passing tests.
for (const result of results.filter((r) => r.code !== 0)) {
  const lines = result.output.split('\n');
  const start = lines.findIndex((line) => line.includes('failing tests:'));
  const failures = start >= 0 ? lines.slice(start) : lines.filter((line) => line.includes('✖'));
  if (failures.length === 0) continue;
  console.log(`\n======== ${result.suite.name}: failures ========`);
  console.log(failures.slice(0, 80).join('\n'));
  if (failures.length > 80) console.log(`… ${failures.length - 80} more lines above in the log`);
}
for (const note of notes) console.log(`NOTE: ${note}`);
process.exit(failed ? 1 : 0);
