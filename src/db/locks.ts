import type { Dialect } from './database.ts';

/**
 * `SELECT … FOR UPDATE` where the dialect has it. PostgreSQL locks the rows until the transaction
 * ends; SQLite has no row locks and needs none: its transactions start with BEGIN IMMEDIATE (see
 * sqlite.ts), so writers already run one at a time.
 */
export function forUpdate<Q extends { forUpdate(): Q }>(query: Q, dialect: Dialect): Q {
  return dialect === 'postgres' ? query.forUpdate() : query;
}
