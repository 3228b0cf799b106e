// npm run bench: runs every suite on this machine, prints one table and writes .bench/results.json.
//   BENCH_SUITES=http,queue,catalogue,console,search,distinct,documents,reports,instructions   the suites to run (all by default)
//   BENCH_DURATION=30       seconds of measured autocannon load per target (after a short warm-up)
//   BENCH_WRK_DURATION=30   seconds of measured wrk load per target (http, catalogue and search suites)
//   BENCH_TOOL=both         the http and catalogue suites' load generator: autocannon, wrk or both
//   BENCH_ROUNDS=1          the http suite's alternating rounds of each target and a hello world (median shown)
//   BENCH_SCALE=1           the catalogue suite's data set (academy seed --scale N), kept in .bench/
//   BENCH_DATABASES=sqlite,postgres   BENCH_SQL_RUNS=500   BENCH_REBUILD=1 (build the data sets again)
//   BENCH_COMPARE=DIR       the instructions suite also counts the reads of another checkout (its own
//                           bench/ and node_modules), e.g. a git worktree of an earlier commit
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { catalogueBench } from './catalogue.ts';
import { consoleBench } from './console.ts';
import { distinctBench } from './distinct.ts';
import { documentsBench } from './documents.ts';
import { durationOf, httpBench, roundsOf } from './http.ts';
import { callgrindWindows, instructionsBench } from './instructions.ts';
import { queueBench } from './queue.ts';
import { type BenchRow, formatTable, type Suite, writeResults } from './report.ts';
import { reportsBench } from './reports.ts';
import { searchBench } from './search.ts';

/** Each suite starts and stops what it measures; add new ones here. */
const all: Record<string, Suite> = {
  http: httpBench,
  queue: queueBench,
  catalogue: catalogueBench,
  console: consoleBench,
  search: searchBench,
  distinct: distinctBench,
  documents: documentsBench,
  reports: reportsBench,
  instructions: instructionsBench,
};
const chosen = (process.env.BENCH_SUITES ?? Object.keys(all).join(',')).split(',').map((name) => name.trim());
const unknown = chosen.filter((name) => !(name in all));
if (unknown.length) throw new Error(`BENCH_SUITES names unknown suites: ${unknown.join(', ')} (known: ${Object.keys(all).join(', ')})`);
const suites = chosen.map((name) => all[name] as Suite);
// Read (and checked) before any suite runs: a bad value fails at once, not after an hour.
const durations = {
  durationSeconds: durationOf('autocannon'),
  wrkDurationSeconds: durationOf('wrk'),
  httpRounds: roundsOf(),
  callgrind: callgrindWindows(),
};

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
  ...durations,
  suites: chosen,
  scale: Number(process.env.BENCH_SCALE ?? 1),
});
console.log(`Results written to .bench/results.json`);
