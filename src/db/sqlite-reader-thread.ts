/**
 * A reader thread of a SQLite database (src/db/sqlite-readers.ts): a connection of its own, which
 * writes nothing (`query_only`), says when it is ready, runs the statements its pool sends, one at a
 * time in the order sent, and answers with their rows or their error's message and codes.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { NodeSqliteDatabase } from './sqlite.ts';

/** A statement to run: its id in the pool, its text and its parameters. */
export interface ReaderRequest {
  id: number;
  sql: string;
  parameters: readonly unknown[];
}

/** The rows of request `id`, or its error (as node:sqlite reported it: message, code, SQLite's result code). */
export type ReaderAnswer =
  | { ready: true }
  | { id: number; rows: unknown[] }
  | { id: number; error: { message: string; code?: unknown; errcode?: unknown; errstr?: unknown } };

const { file, lockMs, pageCacheKib } = workerData as { file: string; lockMs: number | null; pageCacheKib: number | null };
const database = new NodeSqliteDatabase(file);
database.prepare('PRAGMA query_only = ON').all([]);
if (lockMs !== null) database.prepare(`PRAGMA busy_timeout = ${lockMs}`).all([]);
if (pageCacheKib !== null) database.prepare(`PRAGMA cache_size = -${pageCacheKib}`).all([]);

const port = parentPort;
if (!port) throw new Error('sqlite-reader-thread.ts runs as a worker thread');
port.on('message', (request: ReaderRequest) => {
  let answer: ReaderAnswer;
  try {
    answer = { id: request.id, rows: database.prepare(request.sql).all(request.parameters) };
  } catch (thrown) {
    const error = thrown as Error & { code?: unknown; errcode?: unknown; errstr?: unknown };
    answer = {
      id: request.id,
      error: { message: String(error?.message ?? thrown), code: error?.code, errcode: error?.errcode, errstr: error?.errstr },
    };
  }
  port.postMessage(answer);
});
port.postMessage({ ready: true } satisfies ReaderAnswer);
