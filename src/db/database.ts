import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.ts';
import { NodeSqliteDatabase } from './sqlite.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** Connection string for PostgreSQL (LISTEN/NOTIFY needs its own client); the file path for SQLite. */
  url: string;
  /** SQLite only: see NodeSqliteDatabase.dataVersion. */
  dataVersion?: () => number;
  close(): Promise<void>;
}

// Both dialects hand rows back in one shape: timestamps as ISO 8601 strings, JSON as text, bigint
// counts as numbers. Repositories then read rows the same way on either database.
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (value) => new Date(value).toISOString());
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (value) => new Date(`${value}Z`).toISOString());
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => value);
pg.types.setTypeParser(pg.types.builtins.JSONB, (value) => value);
pg.types.setTypeParser(pg.types.builtins.JSON, (value) => value);
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

export function dialectOf(url: string): Dialect {
  return url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
}

export function sqliteFile(url: string): string {
  return url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
}

export function openDatabase(url: string, options: { poolSize?: number } = {}): Database {
  if (dialectOf(url) === 'sqlite') {
    const database = new NodeSqliteDatabase(sqliteFile(url));
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database }) });
    return { db, dialect: 'sqlite', url, dataVersion: () => database.dataVersion(), close: () => db.destroy() };
  }
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
  // A client that loses its server must not crash the process: idle ones report through the pool,
  // checked-out ones would emit 'error' with no listener (an uncaught exception) although their query
  // already rejects. The pool replaces dead clients; the next query reconnects.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', url, close: () => db.destroy() };
}

/** One round trip, for readiness and health checks. */
export async function ping(db: Kysely<DB>): Promise<void> {
  await sql`select 1`.execute(db);
}
