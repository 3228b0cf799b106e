// GET /search on the catalogue suite's data set (`academy seed --scale N`: 100,000 students and 10,000
// staff users for N = 1), on SQLite and on PostgreSQL (when reachable). Three kinds of query, each
// under wrk with 32 connections for BENCH_WRK_DURATION seconds:
//   a student's email   500 different ones, each request the next (what looking a person up is)
//   a full name         500 different "first last" names of students
//   a common surname    one surname that about one student in sixty has, every time
// The mixes are read from the data set. An email or a name matches a few hundred rows at most, so
// each of those requests is searched in the database; the common surname matches thousands, so its
// answer is kept while nothing is written (ADR 0009, "Kept answers") and that row measures serving
// it. Target (issue): p95 < 50 ms at 32 connections, with one process and with two sharing the port.
// Beside each, the service call alone in this process, answers not kept: what a search costs.
// Standalone: node --import ./bin/tsx-loader.js bench/search.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pino from 'pino';
import { assemble, modules } from '../src/assembly/modules.ts';
import { loadConfig } from '../src/config.ts';
import { createSearchService, searchGroupsOf } from '../src/modules/search/service.ts';
import { operatorContext } from '../src/platform/context.ts';
import { benchDialects, benchSecretKey, type Dataset, dataset } from './datasets.ts';
import { CONNECTIONS, durationOf, SERVER_FLAGS, serversOnOnePort, startServer, stop } from './http.ts';
import { type BenchRow, formatTable } from './report.ts';
import { ensureWrk, runPaths } from './wrk.ts';

const P95_TARGET_MS = 50;
const MIX = 500;
const SURNAME = 'okafor';

function log(text: string): void {
  process.stderr.write(`[bench] ${text}\n`);
}

interface Mix {
  name: string;
  queries: string[];
}

/** A deterministic sample of the students: every (count / MIX)th, by id. */
async function mixesOf(data: Dataset): Promise<Mix[]> {
  const { platform } = assemble(loadConfig({ DATABASE_URL: data.url, ACADEMY_DATA_DIR: data.dataDir, ...benchSecretKey }), {
    logger: pino({ level: 'warn' }),
  });
  try {
    const { db } = platform.database;
    const students = await db
      .selectFrom('users')
      .select(['name', 'email'])
      .where('is_admin', '=', false)
      .where(sql<boolean>`id % 199 = 0`)
      .orderBy('id')
      .limit(MIX)
      .execute();
    return [
      { name: "a student's email", queries: students.map((s) => s.email) },
      { name: 'a full name', queries: students.map((s) => s.name) },
      { name: `a common surname (${SURNAME})`, queries: [SURNAME] },
    ];
  } finally {
    await platform.close();
  }
}

/** The service call alone, each query of the mix in turn, `runs` calls: mean and p95 in ms. */
async function inProcess(data: Dataset, mix: Mix, runs: number) {
  const { platform } = assemble(loadConfig({ DATABASE_URL: data.url, ACADEMY_DATA_DIR: data.dataDir, ...benchSecretKey }), {
    logger: pino({ level: 'warn' }),
  });
  try {
    // Answers are not kept here: this measures what a search costs the database and the process.
    const service = createSearchService(platform, searchGroupsOf(modules), { keep: false });
    const ctx = operatorContext(platform);
    for (let i = 0; i < 20; i++) await service.search(ctx, { q: mix.queries[i % mix.queries.length] });
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await service.search(ctx, { q: mix.queries[i % mix.queries.length] });
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { mean: times.reduce((s, t) => s + t, 0) / runs, p95: times[Math.ceil(0.95 * runs) - 1] as number };
  } finally {
    await platform.close();
  }
}

async function benchDialect(data: Dataset, seconds: number): Promise<BenchRow[]> {
  const label = data.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const mixes = await mixesOf(data);
  const rows: BenchRow[] = [];
  const runs = Number(process.env.BENCH_SQL_RUNS ?? 500);
  const costs = new Map<Mix, { mean: number; p95: number }>();
  for (const mix of mixes) {
    log(`${label}: search for ${mix.name}: the service call alone, ${runs} runs`);
    costs.set(mix, await inProcess(data, mix, runs));
  }
  const directory = mkdtempSync(path.join(tmpdir(), 'academy-bench-search-'));
  const env = { BENCH_DATABASE_URL: data.url, BENCH_DATA_DIR: data.dataDir };
  try {
    // One process, then two sharing one port (ACADEMY_REUSE_PORT): what a second process does on
    // this machine's two cores.
    for (const processes of [1, 2]) {
      const servers =
        processes === 1
          ? await startServer<{ base: string; token: string }>('app-server.ts', SERVER_FLAGS, env).then((server) => ({
              ready: server.ready,
              stop: () => stop(server.child),
            }))
          : await serversOnOnePort(env, processes);
      try {
        for (const mix of mixes) {
          const job = {
            base: servers.ready.base,
            paths: mix.queries.map((q) => `/api/v1/search?q=${encodeURIComponent(q)}`),
            headers: { Authorization: `Bearer ${servers.ready.token}` },
            connections: CONNECTIONS,
            directory,
          };
          await runPaths(job, 3); // warm-up
          const how = processes === 1 ? '' : `, ${processes} processes`;
          log(`${label}${how}: search for ${mix.name}: wrk, ${seconds} s`);
          const result = await runPaths(job, seconds);
          const met = result.p95Ms < P95_TARGET_MS ? 'met' : 'MISSED';
          rows.push({
            suite: 'search',
            target: `GET /search?q=${mix.name} (${label}${how}, wrk)`,
            rps: result.rps,
            p50Ms: result.p50Ms,
            p99Ms: result.p99Ms,
            note: `p95 ${result.p95Ms.toFixed(1)} ms: p95 < ${P95_TARGET_MS} ms ${met}; ${mix.queries.length} different q; wrk ${seconds} s, ${CONNECTIONS} connections${result.non2xx || result.errors ? `; ${result.non2xx} non-2xx, ${result.errors} errors` : ''}`,
          });
          if (processes > 1) continue;
          const cost = costs.get(mix) as { mean: number; p95: number };
          rows.push({
            suite: 'search',
            target: `  the search service alone (${label}, in-process)`,
            rps: 1000 / cost.mean,
            meanMs: cost.mean,
            note: `${runs} calls in a loop, answers not kept: mean ${cost.mean.toFixed(2)} ms, p95 ${cost.p95.toFixed(2)} ms (requests/s = 1000 / mean)`,
          });
        }
      } finally {
        await servers.stop();
      }
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  return rows;
}

export async function searchBench(): Promise<BenchRow[]> {
  if (!(await ensureWrk((text) => console.error(`[search] ${text}`)))) {
    return [{ suite: 'search', target: 'search', note: 'skipped: wrk is not installed (apt-get install wrk, or BENCH_WRK=/path/to/wrk)' }];
  }
  const scale = Number(process.env.BENCH_SCALE ?? 1);
  const seconds = durationOf('wrk');
  const { dialects, skipped } = await benchDialects('search');
  const rows: BenchRow[] = [...skipped];
  const datasets: Dataset[] = [];
  for (const dialect of dialects) datasets.push(await dataset(dialect, scale, log));
  for (const data of datasets) {
    rows.push(...(await benchDialect(data, seconds)));
    rows.push({
      suite: 'search',
      target: `data set (${data.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'})`,
      note: `seed --scale ${data.summary.scale}: ${data.summary.students} students, ${data.summary.staff} staff users, ${data.summary.enrolments} enrolments`,
    });
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(formatTable(await searchBench()));
}
