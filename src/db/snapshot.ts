import { type Kysely, sql } from 'kysely';
import type { Dialect } from './database.ts';
import type { DB } from './schema.ts';

/** The executors of SQLite snapshots (a connection inside `begin deferred`): not transactions to Kysely. */
const snapshots = new WeakSet<Kysely<DB>>();

/** Whether `db` is a transaction or a snapshot's executor: what it reads must be read through it. */
export function holdsState(db: Kysely<DB>): boolean {
  return db.isTransaction || snapshots.has(db);
}

/**
 * Runs `read` in one snapshot of the database: every statement it makes through the executor it is
 * given sees the same committed state, whatever is committed meanwhile, by this process or another.
 * For an answer made of several reads that must agree (a row and its children, a list and what it
 * embeds): read one after the other outside a snapshot, a commit between them shows a state the
 * database never held.
 * - PostgreSQL: a `REPEATABLE READ READ ONLY` transaction (under the default READ COMMITTED each
 *   statement has a snapshot of its own).
 * - SQLite: a deferred transaction on the process's one connection, whose snapshot (WAL) is taken at
 *   its first read. It takes no write lock, unlike the `BEGIN IMMEDIATE` of the writing transactions
 *   (src/db/sqlite.ts), and holds the connection, as they do, until it ends.
 *
 * Given a transaction or a snapshot's executor, `read` runs in it: a snapshot within a snapshot is the
 * one already open (neither database nests transactions), or the transaction with its own isolation.
 */
export async function readSnapshot<T>(db: Kysely<DB>, dialect: Dialect, read: (executor: Kysely<DB>) => Promise<T>): Promise<T> {
  if (holdsState(db)) return read(db);
  if (dialect === 'postgres') return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(read);
  return db.connection().execute(async (connection) => {
    await sql`begin deferred`.execute(connection);
    snapshots.add(connection);
    let result: T;
    try {
      result = await read(connection);
    } catch (error) {
      await sql`rollback`.execute(connection).catch(() => {});
      throw error;
    }
    try {
      await sql`commit`.execute(connection);
    } catch (error) {
      // The connection is shared: it must not be left inside the transaction.
      await sql`rollback`.execute(connection).catch(() => {});
      throw error;
    }
    return result;
  });
}
