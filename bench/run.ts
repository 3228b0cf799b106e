// npm run bench: runs every suite on this machine, prints one table and writes .bench/results.json.
//   BENCH_DURATION=10   seconds of measured load per target (after a short warm-up)
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { httpBench } from './http.ts';
import { queueBench } from './queue.ts';
import { type BenchRow, formatTable, type Suite, writeResults } from './report.ts';

/** Each suite starts and stops what it measures; add new ones here. */
const suites: Suite[] = [httpBench, queueBench];

const resultsFile = fileURLToPath(new URL('../.bench/results.json', import.meta.url));

const rows: BenchRow[] = [];
for (const suite of suites) rows.push(...(await suite()));

console.log(`\n${formatTable(rows)}\n`);
writeResults(resultsFile, rows, {
  node: process.version,
  platform: `${os.platform()} ${os.arch()}`,
  cpus: os.cpus().length,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  loadAverage: os.loadavg(),
  durationSeconds: Number(process.env.BENCH_DURATION ?? 10),
});
console.log(`Results written to .bench/results.json`);
