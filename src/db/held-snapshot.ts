import type { CompiledQuery } from 'kysely';
import type pg from 'pg';
import { NodeSqliteDatabase } from './sqlite.ts';

/** Rows as arrays, values in the order of `columns`: many rows without an object per row. */
export interface ArrayRows {
  columns: string[];
  rows: unknown[][];
}

/**
 * One snapshot of the database held open for a long read made of many statements (a report's
 * pages): every statement sees the database as it was when the snapshot was taken, whatever is
 * committed meanwhile. Reads may be asked for at once; they are spread over the reader's
 * connections. `close` ends it (it must be called, or connections stay checked out); it does not
 * fail: a read-only transaction that cannot be ended loses nothing, its connection is closed instead.
 */
export interface HeldSnapshot {
  arrays(query: CompiledQuery): Promise<ArrayRows>;
  close(): Promise<void>;
}

/**
 * PostgreSQL: the first connection opens a `REPEATABLE READ READ ONLY` transaction and exports its
 * snapshot (`pg_export_snapshot`); each other one opens the same kind of transaction and imports it
 * (`SET TRANSACTION SNAPSHOT`), so that `connections` pages can be read at once, all in one state.
 * A read goes to the connection idle longest: none stays idle in its transaction much longer than
 * the others, which the server's `idle_in_transaction_session_timeout` would end.
 */
export async function holdPostgresSnapshot(pool: pg.Pool, connections: number): Promise<HeldSnapshot> {
  const clients: pg.PoolClient[] = [];
  const release = (error?: Error) => {
    for (const client of clients.splice(0)) client.release(error);
  };
  try {
    const lead = await pool.connect();
    clients.push(lead);
    await lead.query('begin isolation level repeatable read read only');
    const exported = await lead.query<{ id: string }>('select pg_export_snapshot() as id');
    const id = exported.rows[0]?.id as string;
    for (let i = 1; i < connections; i++) {
      const client = await pool.connect();
      clients.push(client);
      await client.query('begin isolation level repeatable read read only');
      await client.query(`set transaction snapshot ${client.escapeLiteral(id)}`);
    }
  } catch (error) {
    // A connection whose transaction state is unknown is closed, not handed back to the pool.
    release(error as Error);
    throw error;
  }
  const idle = [...clients];
  const waiting: { resolve: (client: pg.PoolClient) => void; reject: (error: Error) => void }[] = [];
  let failed: Error | undefined;
  let closed = false;
  return {
    async arrays(query) {
      if (closed) throw new Error('The snapshot is closed.');
      const client = idle.shift() ?? (await new Promise<pg.PoolClient>((resolve, reject) => waiting.push({ resolve, reject })));
      try {
        const result = await client.query({ text: query.sql, values: query.parameters as unknown[], rowMode: 'array' });
        return { columns: result.fields.map((field) => field.name), rows: result.rows as unknown[][] };
      } catch (error) {
        failed ??= error as Error;
        throw error;
      } finally {
        const next = waiting.shift();
        if (next) next.resolve(client);
        else idle.push(client);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      // Reads still waiting for a connection (read ahead by a generation that failed) end now.
      for (const next of waiting.splice(0)) next.reject(new Error('The snapshot is closed.'));
      if (!failed) {
        try {
          await Promise.all(clients.map((client) => client.query('commit')));
        } catch (error) {
          failed = error as Error;
        }
      }
      release(failed);
    },
  };
}

/**
 * SQLite: a connection of its own (the process's shared one goes on serving and writing), in a
 * deferred transaction whose snapshot (WAL) is taken by its first read, made here. Reads run one at a
 * time, as every node:sqlite call does. While it is held, a checkpoint cannot move the WAL past it.
 */
export function holdSqliteSnapshot(file: string, pageCacheKib: number): HeldSnapshot {
  const connection = new NodeSqliteDatabase(file);
  try {
    connection.prepare(`PRAGMA cache_size = -${Math.floor(pageCacheKib)}`).all([]);
    connection.prepare('begin deferred').run([]);
    connection.prepare('select count(*) from sqlite_schema').all([]);
  } catch (error) {
    connection.close();
    throw error;
  }
  let closed = false;
  return {
    async arrays(query) {
      if (closed) throw new Error('The snapshot is closed.');
      return connection.prepare(query.sql).arrays(query.parameters);
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        connection.prepare('commit').run([]);
      } catch {
        // Closing the connection ends its transaction.
      }
      connection.close();
    },
  };
}
