import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { postgresAdminUrl } from './env.ts';

export interface Templates {
  /** Environment for the test processes: where their databases are copied from. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * Migrates one template database per dialect before the suites start, so that each test file copies a
 * migrated database (a file copy on SQLite, `CREATE DATABASE … TEMPLATE` on PostgreSQL) instead of
 * running every migration again.
 */
export async function prepareTemplates(dialects: { sqlite: boolean; postgres: boolean }): Promise<Templates> {
  const env: Record<string, string> = {};
  const drops: (() => Promise<void>)[] = [];
  if (dialects.sqlite) {
    const dir = mkdtempSync(path.join(tmpdir(), 'academy-template-'));
    const file = path.join(dir, 'template.db');
    const database = openDatabase(`sqlite:${file}`);
    await migrate(database);
    // Closing the last connection checkpoints the write-ahead log into the file that is copied.
    await database.close();
    env.TEST_SQLITE_TEMPLATE = file;
    drops.push(async () => rmSync(dir, { recursive: true, force: true }));
  }
  if (dialects.postgres) {
    const name = `academy_template_${process.pid}_${randomBytes(4).toString('hex')}`;
    const adminClient = new pg.Client({ connectionString: postgresAdminUrl });
    await adminClient.connect();
    await adminClient.query(`create database ${name}`);
    await adminClient.end();
    const url = new URL(postgresAdminUrl);
    url.pathname = `/${name}`;
    const database = openDatabase(url.toString());
    await migrate(database);
    // A template must have no open connections while it is copied.
    await database.close();
    env.TEST_POSTGRES_TEMPLATE = name;
    drops.push(async () => {
      const client = new pg.Client({ connectionString: postgresAdminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    });
  }
  return {
    env,
    drop: async () => {
      for (const drop of drops) await drop();
    },
  };
}
