import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { runsPrepared } from './database.ts';
import type { DB } from './schema.ts';

/**
 * Runs a compiled query, on PostgreSQL as a named prepared statement (planned once per connection,
 * `runsPrepared`): for queries whose text varies with their shape only and whose plan suits every value.
 */
export async function executePrepared<R>(db: Kysely<any>, compiled: CompiledQuery<R>): Promise<R[]> {
  runsPrepared(compiled.sql);
  return (await db.executeQuery(compiled)).rows;
}

/**
 * Compiles a query once and runs it with new parameter values, for the few queries on every
 * request's path (token lookup, organization read). Building and compiling a Kysely query costs
 * more than SQLite takes to run it; the SQL text is identical each time, so it is done once.
 * On PostgreSQL it also runs as a named prepared statement, so it is not planned again each time.
 * `query` is built with placeholder values in the same positions as the parameters later passed.
 */
export function prepare<R>(db: Kysely<DB>, query: Compilable<R>): (...parameters: unknown[]) => Promise<R[]> {
  const compiled = query.compile();
  runsPrepared(compiled.sql);
  return async (...parameters) => {
    if (parameters.length !== compiled.parameters.length) {
      throw new Error(`Prepared query expects ${compiled.parameters.length} parameter(s), got ${parameters.length}`);
    }
    return (await db.executeQuery<R>({ ...compiled, parameters })).rows;
  };
}
