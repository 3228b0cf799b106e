/**
 * Which database failures mean "not now" rather than "this request is wrong": the server cannot be
 * reached, a bound of DatabaseTimeouts ran out (on SQLite's reader threads too), or the server refuses
 * work it would do later. Both dialects' and both drivers' shapes of them are told apart here, and
 * only here.
 */

/**
 * The code of a statement on a SQLite reader thread (src/db/sqlite-readers.ts) stopped at the
 * statement timeout, or whose thread was lost: the database could not answer now.
 */
export const READER_UNAVAILABLE = 'ERR_SQLITE_READER_UNAVAILABLE';

/** Socket errors of a server that cannot be reached. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs: a statement cancelled by `statement_timeout` (57014), a lock not granted within
 * `lock_timeout` (55P03), a transaction chosen as a deadlock's victim (40P01) or refused as not
 * serializable (40001), whose retry can succeed, a session ended for idling in a transaction (25P03),
 * a server shutting down or starting (57P01-57P03), and the classes of connection failures (08) and
 * exhausted resources (53).
 */
const POSTGRES_STATES = new Set(['57014', '55P03', '40P01', '40001', '25P03', '57P01', '57P02', '57P03']);
const POSTGRES_CLASSES = ['08', '53'];

/**
 * pg reports a lost or timed-out connection without a code; these are its messages. A client closed
 * after a read timeout (src/db/database.ts) fails the transaction's rollback with the last one.
 */
const PG_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|timeout expired|Client has encountered a connection error|Client was closed and is not queryable)/;

/** node:sqlite: the database stayed locked (SQLITE_BUSY, SQLITE_LOCKED and their extended codes) past `busy_timeout`. */
const SQLITE_BUSY_CODES = new Set([5, 6]);

function unavailable(error: Error & { code?: unknown; errcode?: unknown }): boolean {
  const code = typeof error.code === 'string' ? error.code : undefined;
  if (code === READER_UNAVAILABLE) return true;
  if (code && NETWORK_CODES.has(code)) return true;
  if (code && /^[0-9A-Z]{5}$/.test(code) && (POSTGRES_STATES.has(code) || POSTGRES_CLASSES.includes(code.slice(0, 2)))) return true;
  if (code === 'ERR_SQLITE_ERROR' && typeof error.errcode === 'number') return SQLITE_BUSY_CODES.has(error.errcode & 0xff);
  return PG_MESSAGES.test(error.message);
}

/** True when `error` (or what caused it) says the database is unavailable for now; retrying later can succeed. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (unavailable(current)) return true;
    // A host name with several addresses fails with one error per address.
    if (current instanceof AggregateError && current.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
  }
  return false;
}

/**
 * Whether a database error is a unique-constraint violation, on either dialect: PostgreSQL's SQLSTATE
 * 23505 (of the named index or constraint, when one is given) or SQLite's SQLITE_CONSTRAINT_UNIQUE
 * (whose message names columns, not the index, so `name` is not checked there).
 */
export function isUniqueViolation(error: unknown, name?: string): boolean {
  const e = error as { code?: unknown; errcode?: unknown; constraint?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === '23505') return name === undefined || e.constraint === name;
  return e.code === 'ERR_SQLITE_ERROR' && e.errcode === 2067;
}
