import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../../src/db/database.ts';
import { dialect, postgresAdminUrl } from './env.ts';

export interface TestDatabase {
  url: string;
  dataDir: string;
  drop(): Promise<void>;
}

/**
 * The migrated template that test databases are copied from, prepared once per test run by
 * scripts/test.ts (see test/support/templates.ts): a database name on PostgreSQL, a file on SQLite.
 * Unset when a test file runs on its own; its databases are then migrated from scratch.
 */
const template = dialect === 'postgres' ? process.env.TEST_POSTGRES_TEMPLATE : process.env.TEST_SQLITE_TEMPLATE;

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresAdminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A database (and data directory) of the current dialect for one test file: a copy of the migrated
 * template when `migrated` is asked for and a template exists, else an empty one.
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase & { fromTemplate: boolean }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'academy-test-'));
  const fromTemplate = Boolean(options.migrated && template);
  if (dialect === 'sqlite') {
    const file = path.join(dataDir, 'academy.db');
    if (fromTemplate) copyFileSync(template as string, file);
    return {
      url: `sqlite:${file}`,
      dataDir,
      fromTemplate,
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `academy_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin((client) => client.query(fromTemplate ? `create database ${name} template ${template}` : `create database ${name}`));
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dataDir,
    fromTemplate,
    drop: async () => {
      await admin((client) => client.query(`drop database if exists ${name} with (force)`));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * What the kept totals and pages of src/db/totals.ts see as the database's version, where other test
 * files move it: the server's snapshot on PostgreSQL (a write to any of its databases changes it);
 * on SQLite each test file writes a file of its own, so nothing else moves it. Tests that count kept
 * reads repeat them until this is the same before and after.
 */
export async function outsideWrites(database: Database): Promise<string | undefined> {
  return database.dialect === 'postgres'
    ? (await sql<{ v: string }>`select pg_current_snapshot()::text as v`.execute(database.db)).rows[0]?.v
    : 'sqlite: other test files write other files';
}
