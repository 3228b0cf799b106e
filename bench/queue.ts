// The durable job queue on SQLite and PostgreSQL:
//   throughput  JOBS no-op jobs enqueued up front, drained by one worker of CONCURRENCY; jobs/s
//   latency     single jobs enqueued one at a time at a steady pace while the worker idle-waits (its
//               poll interval is 10 minutes, so only the wake-up starts them): time from the start of
//               the enqueuing transaction to the handler's start. On PostgreSQL the jobs are enqueued
//               by a second platform (another connection pool, as from an API process), so the worker
//               is woken by LISTEN/NOTIFY; on SQLite by the in-process wake-up.
// Standalone: npx node --import ./bin/tsx-loader.js bench/queue.ts (BENCH_POSTGRES_URL: a server database to create the bench database in)
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import pino from 'pino';
import { assemble } from '../src/assembly/modules.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { createJobRegistry } from '../src/platform/jobs/registry.ts';
import { createWorker } from '../src/platform/jobs/worker.ts';
import type { Platform } from '../src/platform/platform.ts';
import { benchSecretKey } from './datasets.ts';
import { type BenchRow, formatTable } from './report.ts';

const JOBS = 2000;
const CONCURRENCY = 8;
const LATENCY_SAMPLES = 200;
const LATENCY_PACE_MS = 20;
const postgresAdminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface BenchDatabase {
  url: string;
  dataDir: string;
  drop(): Promise<void>;
}

async function sqliteDatabase(): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'academy-bench-'));
  return {
    url: `sqlite:${path.join(dataDir, 'academy.db')}`,
    dataDir,
    drop: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

async function postgresDatabase(): Promise<BenchDatabase> {
  const name = `academy_bench_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 2000 });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'academy-bench-'));
  return {
    url: url.toString(),
    dataDir,
    drop: async () => {
      await admin(`drop database if exists ${name} with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function open(database: BenchDatabase): Platform {
  return assemble(loadConfig({ DATABASE_URL: database.url, ACADEMY_DATA_DIR: database.dataDir, ...benchSecretKey }), {
    logger: pino({ level: 'warn' }),
  }).platform;
}

/** A worker whose `system.noop` handler reports each start; the other jobs do nothing. */
function benchWorker(platform: Platform, onStart: () => void, pollMs: number) {
  const registry = createJobRegistry();
  for (const name of platform.registry.names()) if (name !== 'system.noop') registry.register(name, { async handler() {} });
  registry.register('system.noop', {
    async handler() {
      onStart();
    },
  });
  const { database, jobs, queue, outbox, clock, logger } = platform;
  return createWorker({ database, jobs, queue, outbox, registry, clock, logger }, { concurrency: CONCURRENCY, leaseMs: 60_000, pollMs });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

async function throughput(platform: Platform): Promise<number> {
  const { db } = platform.database;
  for (let i = 0; i < JOBS; i += 500) {
    await db.transaction().execute(async (trx) => {
      for (let j = i; j < Math.min(JOBS, i + 500); j++) await platform.queue.enqueue(trx, 'system.noop', {});
    });
  }
  let started = 0;
  const worker = benchWorker(platform, () => started++, 1000);
  const begin = performance.now();
  await worker.start();
  // Done when the last job is deleted, not just started.
  while ((await db.selectFrom('jobs').select('id').limit(1).execute()).length > 0) await new Promise((r) => setTimeout(r, 5));
  const seconds = (performance.now() - begin) / 1000;
  await worker.stop();
  if (started !== JOBS) throw new Error(`throughput: ${started} of ${JOBS} jobs ran`);
  return JOBS / seconds;
}

async function latency(platform: Platform, enqueuer: Platform): Promise<{ p50: number; p99: number }> {
  let notify: (() => void) | null = null;
  const worker = benchWorker(platform, () => notify?.(), 600_000);
  await worker.start();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const samples: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES + 10; i++) {
    const startedAt = new Promise<number>((resolve) => {
      notify = () => resolve(performance.now());
    });
    const enqueuedAt = performance.now();
    await enqueuer.database.db.transaction().execute((trx) => enqueuer.queue.enqueue(trx, 'system.noop', {}));
    const started = await Promise.race([startedAt, new Promise<number>((resolve) => setTimeout(() => resolve(Number.NaN), 5000))]);
    if (Number.isNaN(started)) throw new Error('latency: a job did not start within 5 s');
    // The first few warm up connections and V8.
    if (i >= 10) samples.push(started - enqueuedAt);
    await new Promise((resolve) => setTimeout(resolve, LATENCY_PACE_MS));
  }
  await worker.stop();
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function benchDialect(dialect: 'sqlite' | 'postgres'): Promise<BenchRow[]> {
  const database = dialect === 'sqlite' ? await sqliteDatabase() : await postgresDatabase();
  const platform = open(database);
  const enqueuer = dialect === 'postgres' ? open(database) : platform;
  try {
    await migrate(platform.database);
    const jobsPerSecond = await throughput(platform);
    const { p50, p99 } = await latency(platform, enqueuer);
    return [
      {
        suite: 'queue',
        target: `${dialect} throughput`,
        rps: jobsPerSecond,
        note: `jobs/s: ${JOBS} no-op jobs, concurrency ${CONCURRENCY}`,
      },
      {
        suite: 'queue',
        target: `${dialect} enqueue→start`,
        p50Ms: p50,
        p99Ms: p99,
        note: `${LATENCY_SAMPLES} single jobs, ${dialect === 'postgres' ? 'LISTEN/NOTIFY from another pool' : 'in-process wake-up'}; target p50 < 20 ms`,
      },
    ];
  } finally {
    if (enqueuer !== platform) await enqueuer.close();
    await platform.close();
    await database.drop();
  }
}

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

export async function queueBench(): Promise<BenchRow[]> {
  const rows = await benchDialect('sqlite');
  if (await postgresReachable()) rows.push(...(await benchDialect('postgres')));
  else rows.push({ suite: 'queue', target: 'postgres', note: `skipped: PostgreSQL not reachable at ${postgresAdminUrl}` });
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(formatTable(await queueBench()));
}
