// The large data sets of the catalogue suite (`academy seed --scale N`), built once per database and
// kept for later runs: SQLite in .bench/scale-<N>/academy.db, PostgreSQL in the database
// academy_bench_scale_<N> of BENCH_POSTGRES_URL's server. A data set is reused while its marker names
// the same seed version and scale (src/modules/demo/scale.ts: SCALE_SEED_VERSION); otherwise, or with
// BENCH_REBUILD=1, it is built again. Opening one applies pending migrations, so a new index reaches
// the kept data sets without a rebuild.
import { mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import pino from 'pino';
import { assemble } from '../src/assembly/modules.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { SCALE_SEED_VERSION, type ScaleSummary, seedScale } from '../src/modules/demo/scale.ts';
import { createRuntimeStateRepository } from '../src/modules/runtime/repository.ts';
import type { Platform } from '../src/platform/platform.ts';

export type BenchDialect = 'sqlite' | 'postgres';

export const postgresAdminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * The key of stored secrets in benchmark processes (PostgreSQL needs one set; README: Secrets at rest).
 * Fixed, as the data sets are kept between runs; nothing secret is benchmarked.
 */
export const benchSecretKey = { ACADEMY_SECRET_KEY: process.env.ACADEMY_SECRET_KEY ?? 'YWNhZGVteS1iZW5jaC1vbmx5LTMyLWJ5dGVzLWtleSE=' };

const MARKER = 'bench_dataset';

export interface Dataset {
  dialect: BenchDialect;
  url: string;
  dataDir: string;
  summary: ScaleSummary;
  /** Seconds spent building it in this run; null when an earlier run's data set was reused. */
  builtInSeconds: number | null;
}

interface Marker {
  version: number;
  scale: number;
  summary: ScaleSummary;
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 2000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * The databases a suite measures (BENCH_DATABASES, both by default), and a row saying so when
 * PostgreSQL was asked for but cannot be reached.
 */
export async function benchDialects(
  suite: string,
): Promise<{ dialects: BenchDialect[]; skipped: { suite: string; target: string; note: string }[] }> {
  const asked = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim());
  const dialects: BenchDialect[] = [];
  const skipped: { suite: string; target: string; note: string }[] = [];
  if (asked.includes('sqlite')) dialects.push('sqlite');
  if (asked.includes('postgres')) {
    if (await postgresReachable()) dialects.push('postgres');
    else skipped.push({ suite, target: 'postgres', note: 'skipped: PostgreSQL not reachable (BENCH_POSTGRES_URL)' });
  }
  return { dialects, skipped };
}

export async function postgresReachable(): Promise<boolean> {
  try {
    await admin('select 1');
    return true;
  } catch {
    return false;
  }
}

function open(url: string, dataDir: string): Platform {
  return assemble(loadConfig({ DATABASE_URL: url, ACADEMY_DATA_DIR: dataDir, ...benchSecretKey }), { logger: pino({ level: 'warn' }) })
    .platform;
}

async function marker(platform: Platform): Promise<Marker | null> {
  try {
    const value = await createRuntimeStateRepository(platform.database.db).get(MARKER);
    return value ? (JSON.parse(value) as Marker) : null;
  } catch {
    return null;
  }
}

/** The data set of `scale` on `dialect`, reused or built; `log` reports what happens. */
export async function dataset(dialect: BenchDialect, scale: number, log: (text: string) => void): Promise<Dataset> {
  const name = `scale-${String(scale).replace('.', '_')}`;
  const dataDir = fileURLToPath(new URL(`../.bench/${name}/`, import.meta.url));
  mkdirSync(dataDir, { recursive: true });
  // The seed version is in the PostgreSQL database's name, so that data sets of two versions of the
  // seed (two checkouts on one server) do not rebuild each other's.
  const database = `academy_bench_${name.replace('-', '_')}_v${SCALE_SEED_VERSION}`;
  const url =
    dialect === 'sqlite'
      ? `sqlite:${dataDir}academy.db`
      : (() => {
          const address = new URL(postgresAdminUrl);
          address.pathname = `/${database}`;
          return address.toString();
        })();

  const kept = process.env.BENCH_REBUILD === '1' ? null : await openExisting(dialect, url, dataDir, database);
  if (kept) {
    try {
      const found = await marker(kept);
      if (found && found.version === SCALE_SEED_VERSION && found.scale === scale) {
        await migrate(kept.database);
        log(`${dialect}: reusing the scale ${scale} data set (${found.summary.enrolments} enrolments)`);
        return { dialect, url, dataDir, summary: found.summary, builtInSeconds: null };
      }
    } finally {
      await kept.close();
    }
  }

  log(`${dialect}: building the scale ${scale} data set (academy seed --scale ${scale}); later runs reuse it`);
  if (dialect === 'sqlite') {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${dataDir}academy.db${suffix}`, { force: true });
  } else {
    await admin(`drop database if exists ${database} with (force)`);
    await admin(`create database ${database}`);
  }
  const platform = open(url, dataDir);
  try {
    await migrate(platform.database);
    let shown = -10;
    const summary = await seedScale(platform, scale, {
      onProgress: ({ percent }) => {
        if (percent >= shown + 10) {
          shown = percent;
          log(`${dialect}: ${percent}%`);
        }
      },
    });
    const at = new Date().toISOString();
    await createRuntimeStateRepository(platform.database.db).set(
      MARKER,
      JSON.stringify({ version: SCALE_SEED_VERSION, scale, summary } satisfies Marker),
      at,
    );
    log(`${dialect}: built in ${summary.seconds} s`);
    return { dialect, url, dataDir, summary, builtInSeconds: summary.seconds };
  } finally {
    await platform.close();
  }
}

/** The kept data set's database, opened, or null when there is none. */
async function openExisting(dialect: BenchDialect, url: string, dataDir: string, database: string): Promise<Platform | null> {
  if (dialect === 'postgres') {
    const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 2000 });
    await client.connect();
    try {
      const found = await client.query('select 1 from pg_database where datname = $1', [database]);
      if (found.rowCount === 0) return null;
    } finally {
      await client.end();
    }
  }
  return open(url, dataDir);
}
