import { type Kysely, sql } from 'kysely';
import type { Dialect } from './database.ts';

/** How long an estimate is kept before it is read again. */
const KEPT_MS = 60_000;

/**
 * About how many rows `table` holds: PostgreSQL's own estimate (`reltuples`, kept by ANALYZE and
 * autovacuum), read at most once a minute; 0 on SQLite, which keeps none. Only for choosing how to
 * read a page, never an answer. Its one statement a minute is no page's own (the console's test of
 * statements per page leaves it out, as it does the change feed's).
 */
export function rowEstimate(db: Kysely<any>, dialect: Dialect, table: string): () => Promise<number> {
  let known: { count: number; at: number } | undefined;
  return async () => {
    if (dialect !== 'postgres') return 0;
    if (!known || performance.now() - known.at > KEPT_MS) {
      const { rows } = await sql<{
        n: number;
      }>`select greatest(reltuples, 0)::float8 as n from pg_class where oid = ${table}::regclass`.execute(db);
      known = { count: Number(rows[0]?.n ?? 0), at: performance.now() };
    }
    return known.count;
  };
}
