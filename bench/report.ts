import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** One line of the benchmark report. Suites return rows; `run.ts` prints and saves them together. */
export interface BenchRow {
  suite: string;
  target: string;
  rps?: number;
  p50Ms?: number;
  p99Ms?: number;
  meanMs?: number;
  /** Instructions per request on the server's main thread (suite instructions). */
  instructions?: number;
  /** Requests per second relative to the suite's baseline. */
  ratio?: number;
  note?: string;
}

export type Suite = () => Promise<BenchRow[]>;

function cell(value: number | undefined, digits: number): string {
  return value === undefined ? '-' : value.toFixed(digits);
}

/**
 * Milliseconds: autocannon measures latency in whole milliseconds (0 means under one); wrk and the
 * in-process timings have fractions, shown to two decimals below 10 ms.
 */
function latency(value: number | undefined): string {
  if (value === undefined) return '-';
  if (value === 0) return '<1';
  if (Number.isInteger(value) || value >= 10) return value.toFixed(0);
  return value.toFixed(2);
}

export function formatTable(rows: BenchRow[]): string {
  const header = ['suite', 'target', 'requests/s', 'p50 ms', 'p99 ms', 'mean ms', 'vs baseline', 'note'];
  const lines = rows.map((r) => [
    r.suite,
    r.target,
    cell(r.rps, 0),
    latency(r.p50Ms),
    latency(r.p99Ms),
    latency(r.meanMs),
    r.ratio === undefined ? '-' : `${(r.ratio * 100).toFixed(0)}%`,
    r.note ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] as string).length)));
  const format = (cells: string[]) =>
    cells
      .map((c, i) => (i >= 2 && i <= 6 ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return [format(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n');
}

export function writeResults(file: string, rows: BenchRow[], environment: Record<string, unknown>): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ finishedAt: new Date().toISOString(), environment, rows }, null, 2)}\n`);
}
