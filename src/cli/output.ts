/** Prints a command's result: JSON with --json, otherwise readable text. */
export interface Output {
  json: boolean;
  result(value: unknown, text?: string): void;
  info(text: string): void;
  /** What a server says about itself (its address, a token to try): on stderr, apart from its JSON logs. */
  banner(text: string): void;
  /** Progress of long work, on stderr so that it never mixes with the result; nothing with --json. */
  progress(text: string): void;
}

type Sink = { write(text: string): unknown };

export function createOutput(json: boolean, stdout: Sink = process.stdout, stderr: Sink = process.stderr): Output {
  return {
    json,
    result(value, text) {
      if (json) stdout.write(`${JSON.stringify(value, null, 2)}\n`);
      else stdout.write(`${text ?? JSON.stringify(value, null, 2)}\n`);
    },
    info(text) {
      if (!json) stdout.write(`${text}\n`);
    },
    banner(text) {
      stderr.write(`${text}\n`);
    },
    progress(text) {
      if (!json) stderr.write(`${text}\n`);
    },
  };
}

export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : Array.isArray(v) ? v.join(',') : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n');
}

/** Parses the `--data` option of an admin action; a clear error for bad JSON. */
export function parseData(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new Error('--data must be a JSON object, e.g. --data \'{"name": "x"}\'');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('--data must be a JSON object');
  return value as Record<string, unknown>;
}
