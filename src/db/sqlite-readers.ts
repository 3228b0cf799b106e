import { Worker } from 'node:worker_threads';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { READER_UNAVAILABLE } from './errors.ts';
import type { DB } from './schema.ts';
import type { ReaderAnswer, ReaderRequest } from './sqlite-reader-thread.ts';

/**
 * SQLite reader threads (ADR 0027): node:sqlite runs a statement on the thread that asks, so every
 * statement of a process ran on its one main thread, and a long read (a grouped search, 2–10 ms at a
 * million students) held up every other request while the machine's other cores stood idle. A pool
 * of threads, each with a connection of its own that writes nothing, runs the statements given to
 * it in parallel with the main thread and with each other (SQLite's WAL lets readers read while one
 * connection writes), each seeing what was committed when it began, as a statement on the main
 * connection would.
 *
 * A statement that runs past the statement timeout fails then (on the main connection it could not:
 * it held the thread until it ended), and its thread is told to stop and replaced: node:sqlite cannot
 * interrupt a statement, so the thread ends when the statement does. No transactions: a statement
 * that must see its own transaction's writes runs on the main connection.
 */

interface Pending {
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout | null;
}

interface Reader {
  worker: Worker;
  /** Statements sent and not answered, in the order sent. */
  pending: Map<number, Pending>;
  /** Whether the thread has opened its connection. */
  ready: boolean;
}

export interface SqliteReaders {
  /** The rows of one statement, run on the reader with the fewest statements waiting. */
  all(sql: string, parameters: readonly unknown[]): Promise<unknown[]>;
  /** Kysely over the readers (single statements; a transaction is refused). */
  db: Kysely<DB>;
  /** The threads running now (started at the first statement). */
  running(): number;
  /** The statements sent to each thread and not yet answered, by slot (0 for a slot not started). */
  waiting(): number[];
  close(): Promise<void>;
}

/** SQLite's adapter, but many statements at once: Kysely would otherwise run one at a time, as a single connection must. */
class ReadersAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

function unavailable(message: string): Error {
  return Object.assign(new Error(message), { code: READER_UNAVAILABLE });
}

/** `count` reader threads of the database `file`, started when the first statement comes. */
export function createSqliteReaders(
  file: string,
  count: number,
  options: { statementMs?: number | null; lockMs?: number | null; pageCacheKib?: number | null } = {},
): SqliteReaders {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`SQLite readers: a positive count, not ${count}`);
  const readers: (Reader | null)[] = Array.from({ length: count }, () => null);
  let ids = 0;
  let closed = false;

  /** Stops `reader` (its statements fail with `error`) and empties its slot, which the next statement fills. */
  function stop(reader: Reader, error: Error): void {
    const slot = readers.indexOf(reader);
    if (slot >= 0) readers[slot] = null;
    for (const pending of reader.pending.values()) {
      if (pending.timer) clearTimeout(pending.timer);
      pending.reject(error);
    }
    reader.pending.clear();
    // node:sqlite cannot interrupt a statement: a thread stopped in one ends when it returns. It no
    // longer keeps the process alive meanwhile.
    reader.worker.unref();
    void reader.worker.terminate();
  }

  /**
   * Times the statement `reader` runs now, the first it has not answered (a thread runs them in the
   * order sent), once the thread is ready: the time a statement waits behind another, or for a new
   * thread to start, is not its own.
   */
  function arm(reader: Reader): void {
    const statementMs = options.statementMs ?? null;
    if (statementMs === null || !reader.ready) return;
    const running = reader.pending.values().next().value;
    if (!running || running.timer) return;
    running.timer = setTimeout(
      () => stop(reader, unavailable(`A statement ran past the statement timeout (${statementMs} ms) and was stopped`)),
      statementMs,
    );
    running.timer.unref();
  }

  function start(slot: number): Reader {
    const worker = new Worker(new URL('./sqlite-reader-thread.ts', import.meta.url), {
      workerData: { file, lockMs: options.lockMs ?? null, pageCacheKib: options.pageCacheKib ?? null },
    });
    const reader: Reader = { worker, pending: new Map(), ready: false };
    worker.unref();
    worker.on('message', (answer: ReaderAnswer) => {
      if ('ready' in answer) {
        reader.ready = true;
        arm(reader);
        return;
      }
      const pending = reader.pending.get(answer.id);
      if (!pending) return;
      reader.pending.delete(answer.id);
      if (pending.timer) clearTimeout(pending.timer);
      if (reader.pending.size === 0) worker.unref();
      else arm(reader);
      if ('rows' in answer) pending.resolve(answer.rows);
      else pending.reject(Object.assign(new Error(answer.error.message), answer.error));
    });
    worker.on('error', (error) => stop(reader, unavailable(`A SQLite reader thread failed: ${error.message}`)));
    worker.on('exit', (code) => stop(reader, unavailable(`A SQLite reader thread exited (code ${code})`)));
    readers[slot] = reader;
    return reader;
  }

  /** The reader with the fewest statements waiting; every empty slot is started (at the first statement, all of them, side by side). */
  function least(): Reader {
    let best: Reader | null = null;
    for (let slot = 0; slot < readers.length; slot++) {
      const reader = readers[slot] ?? start(slot);
      if (best === null || reader.pending.size < best.pending.size) best = reader;
    }
    return best as Reader;
  }

  function all(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    if (closed) return Promise.reject(unavailable('The SQLite readers are closed'));
    const reader = least();
    const id = ++ids;
    return new Promise((resolve, reject) => {
      reader.pending.set(id, { resolve, reject, timer: null });
      reader.worker.ref();
      reader.worker.postMessage({ id, sql, parameters } satisfies ReaderRequest);
      arm(reader);
    });
  }

  const connection: DatabaseConnection = {
    async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
      return { rows: (await all(compiled.sql, compiled.parameters)) as R[] };
    },
    // biome-ignore lint/correctness/useYield: refused before the first row
    async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
      throw new Error('The SQLite readers do not stream; read pages, or stream on the main connection');
    },
  };
  const noTransactions = async () => {
    throw new Error('The SQLite readers run single statements; a transaction runs on the main connection');
  };
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => connection,
    beginTransaction: noTransactions,
    commitTransaction: noTransactions,
    rollbackTransaction: noTransactions,
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  const db = new Kysely<DB>({
    dialect: {
      createAdapter: () => new ReadersAdapter(),
      createDriver: () => driver,
      createIntrospector: (kysely) => new SqliteIntrospector(kysely),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });

  return {
    all,
    db,
    running: () => readers.filter((reader) => reader !== null).length,
    waiting: () => readers.map((reader) => reader?.pending.size ?? 0),
    async close() {
      closed = true;
      const stopping = readers.flatMap((reader) => (reader ? [reader.worker.terminate()] : []));
      readers.fill(null);
      await Promise.all(stopping);
    },
  };
}
