import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import { hookedDialect } from './commit-hooks.ts';
import { type HeldSnapshot, holdPostgresSnapshot, holdSqliteSnapshot } from './held-snapshot.ts';
import type { DB } from './schema.ts';
import { NodeSqliteDatabase } from './sqlite.ts';
import { createSqliteReaders } from './sqlite-readers.ts';

export type Dialect = 'sqlite' | 'postgres';

/**
 * How long a request may wait on the database before it gives up with a 503 (README: Timeouts and
 * outages). Work that legitimately runs longer (migrations; report exports later) uses a connection of
 * its own opened without them (`openDatabase` with no `timeouts`): on PostgreSQL a caller can lower the
 * statement timeout with `SET LOCAL`, but not raise it past the client's read timeout.
 */
export interface DatabaseTimeouts {
  /** Waiting for a pooled connection, or for a new one to open (PostgreSQL). */
  acquireMs: number;
  /** One statement (PostgreSQL `statement_timeout`); a read timeout a little later covers a server that stops answering. */
  statementMs: number;
  /** Waiting for a lock: PostgreSQL `lock_timeout`, SQLite `busy_timeout`. */
  lockMs: number;
  /** A session idle inside a transaction this long is ended by PostgreSQL, which frees its locks. */
  idleInTransactionMs: number;
}

/** The client gives the server this long past `statement_timeout` to report the cancellation itself. */
const READ_TIMEOUT_MARGIN_MS = 1000;

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** Connection string for PostgreSQL (LISTEN/NOTIFY needs its own client); the file path for SQLite. */
  url: string;
  /** The bounds this database was opened with; `null` when unbounded. */
  timeouts: DatabaseTimeouts | null;
  /**
   * Holds one snapshot of the database for a long read of many statements (a report's pages), read
   * as arrays; on PostgreSQL over `connections` connections of the pool, so that as many statements
   * run at once (src/db/held-snapshot.ts).
   */
  holdSnapshot(connections: number): Promise<HeldSnapshot>;
  /** SQLite only: see NodeSqliteDatabase.dataVersion. */
  dataVersion?: () => number;
  /**
   * The database for statements whose planning costs more than running them and whose one plan
   * suits every value (`GET /search`'s): on PostgreSQL a second, small pool whose sessions keep a
   * generic plan of each named statement (`plan_cache_mode = force_generic_plan`), without JIT
   * compilation (`jit = off`: the search's plan is estimated dear, and compiling it cost 0.8 s a
   * run), opened at its first use and kept open while idle (a plan lives as long as its session);
   * PostgreSQL otherwise plans a statement again for each run whenever its generic plan looks
   * dearer than the custom ones. On SQLite its reader threads (src/db/sqlite-readers.ts), when
   * it has some, else the same `db`, which plans each text once anyway. Either way another connection
   * than `db`'s: a version it reads (`databaseVersion`) is not comparable with one `db` reads on SQLite.
   */
  planned(): Kysely<DB>;
  /**
   * SQLite: its reader threads (src/db/sqlite-readers.ts), for lists whose reads cost more than
   * passing them to a thread (`listPage`'s `readers`); null on PostgreSQL, whose statements run in
   * server processes of their own, and on SQLite without threads.
   */
  readers: Kysely<DB> | null;
  /** PostgreSQL: the main pool's connections in use, idle, and the requests waiting for one; null on SQLite. */
  poolStats(): { inUse: number; idle: number; waiting: number } | null;
  close(): Promise<void>;
}

// Both dialects hand rows back in one shape: timestamps as ISO 8601 strings, JSON as text, bigint
// counts as numbers. Repositories then read rows the same way on either database.
// PostgreSQL's `infinity` and `-infinity` (the first mark of the students' date orders, migration
// 0031) are no date JavaScript holds: they stay the words, where a Date threw a RangeError.
const infinite = (value: string) => value === 'infinity' || value === '-infinity';
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (value) => (infinite(value) ? value : new Date(value).toISOString()));
pg.types.setTypeParser(pg.types.builtins.TIMESTAMP, (value) => (infinite(value) ? value : new Date(`${value}Z`).toISOString()));
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

/**
 * pg's `query_timeout` fails a query but leaves it on the wire, and every later query of that client
 * (the transaction's rollback first) would queue behind an answer that may never come. Such a client
 * is closed at once instead; the pool opens a fresh one.
 */
/**
 * SQL texts run as named prepared statements on PostgreSQL (see `runsPrepared`), with their names.
 * Bounded: past the limit a text runs unnamed, as every other query does.
 */
const statementNames = new Map<string, string>();
const MAX_STATEMENT_NAMES = 500;

/**
 * Asks PostgreSQL to keep this SQL text parsed and planned per connection: each connection parses it
 * once and, after a few runs, may keep a generic plan. For the few statements on hot paths (token
 * lookup, organization, search) whose planning costs more than their execution. SQLite caches every
 * prepared statement anyway (NodeSqliteDatabase), so this changes nothing there.
 */
export function runsPrepared(text: string): void {
  if (statementNames.has(text) || statementNames.size >= MAX_STATEMENT_NAMES) return;
  statementNames.set(text, `academy_${statementNames.size + 1}`);
}

/** A pg client that runs registered texts as named statements. */
class NamingClient extends pg.Client {
  override query(...args: any[]): any {
    const [text, values] = args;
    if (typeof text === 'string' && args.length <= 2) {
      const name = statementNames.get(text);
      if (name) return (super.query as (...a: any[]) => any)({ name, text, values });
    }
    return (super.query as (...a: any[]) => any)(...args);
  }
}

class BoundedClient extends NamingClient {
  override query(...args: any[]): any {
    const result = super.query(...args);
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        if (error instanceof Error && error.message === 'Query read timeout') this.end().catch(() => {});
      });
    }
    return result;
  }
}

/** Client settings for `timeouts`; PostgreSQL applies the server-side ones to every session. */
function postgresBounds(timeouts: DatabaseTimeouts): pg.ClientConfig {
  return {
    connectionTimeoutMillis: timeouts.acquireMs,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.statementMs + READ_TIMEOUT_MARGIN_MS,
    lock_timeout: timeouts.lockMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    // A server that vanished without closing the connection (a crashed host) is noticed.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
}

export function openDatabase(
  url: string,
  options: {
    poolSize?: number;
    timeouts?: DatabaseTimeouts /** SQLite: this connection's page cache, in KiB. */;
    pageCacheKib?: number;
    /** SQLite: reader threads for `planned()` (0 or none: it is `db`; never for an in-memory database). */
    readers?: number;
  } = {},
): Database {
  const timeouts = options.timeouts ?? null;
  if (dialectOf(url) === 'sqlite') {
    const database = new NodeSqliteDatabase(sqliteFile(url));
    if (timeouts) database.prepare(`PRAGMA busy_timeout = ${timeouts.lockMs}`).all([]);
    if (options.pageCacheKib) database.prepare(`PRAGMA cache_size = -${Math.floor(options.pageCacheKib)}`).all([]);
    const db = new Kysely<DB>({ dialect: hookedDialect(new SqliteDialect({ database })) });
    const file = sqliteFile(url);
    const readers =
      (options.readers ?? 0) > 0 && file !== ':memory:'
        ? createSqliteReaders(file, options.readers as number, {
            statementMs: timeouts?.statementMs ?? null,
            lockMs: timeouts?.lockMs ?? null,
            pageCacheKib: options.pageCacheKib ?? null,
          })
        : null;
    return {
      db,
      dialect: 'sqlite',
      url,
      timeouts,
      // A long read reads its rows once, in order: SQLite's default 2 MB page cache is enough.
      holdSnapshot: async () => holdSqliteSnapshot(file, 2048),
      dataVersion: () => database.dataVersion(),
      planned: () => readers?.db ?? db,
      readers: readers?.db ?? null,
      poolStats: () => null,
      async close() {
        await readers?.close();
        await db.destroy();
      },
    };
  }
  const open = (max: number, settings: Partial<pg.PoolConfig> = {}) => {
    const pool = new pg.Pool({
      connectionString: url,
      max,
      ...(timeouts ? { ...postgresBounds(timeouts), Client: BoundedClient } : { Client: NamingClient }),
      ...settings,
    });
    // A client that loses its server must not crash the process: idle ones report through the pool,
    // checked-out ones would emit 'error' with no listener (an uncaught exception) although their query
    // already rejects. The pool replaces dead clients; the next query reconnects.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    return pool;
  };
  const pool = open(options.poolSize ?? 10);
  const db = new Kysely<DB>({ dialect: hookedDialect(new PostgresDialect({ pool })) });
  let planned: Kysely<DB> | undefined;
  return {
    db,
    dialect: 'postgres',
    url,
    timeouts,
    planned() {
      planned ??= new Kysely<DB>({
        dialect: new PostgresDialect({
          pool: open(PLANNED_POOL_SIZE, {
            options: '-c plan_cache_mode=force_generic_plan -c jit=off',
            // pg closes a client idle for 10 s, and its plans with it: the first full-name search
            // after 12 s of quiet took 66–75 ms at a million students (its statement planned
            // again), 17–20 ms with the session kept.
            idleTimeoutMillis: 0,
          }),
        }),
      });
      return planned;
    },
    readers: null,
    holdSnapshot: (connections) => holdPostgresSnapshot(pool, connections),
    poolStats: () => ({ inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await Promise.all([db.destroy(), planned?.destroy()]);
    },
  };
}

/** Runs `statement` (`copy … from stdin`) with `chunks` as its input, on the connection it belongs to. */
export type CopyFrom = (statement: string, chunks: Iterable<string> | AsyncIterable<string>) => Promise<void>;

/**
 * PostgreSQL: one connection of its own, as a Kysely instance and `copyFrom` on that same connection,
 * so that a `COPY … FROM STDIN` runs within the transaction the instance began (bulk loads: the
 * scale seed). No timeouts: a load runs for minutes.
 */
export async function openCopyingConnection(url: string): Promise<{ db: Kysely<DB>; copyFrom: CopyFrom; close(): Promise<void> }> {
  const client = new NamingClient({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  // The one client, lent to Kysely as often as it asks (it runs one query at a time on it).
  const lent = Object.assign(client, { release: () => {} }) as unknown as PostgresPoolClient;
  const pool: PostgresPool = { connect: async () => lent, end: async () => {}, options: {} };
  const db = new Kysely<DB>({ dialect: hookedDialect(new PostgresDialect({ pool })) });
  return {
    db,
    copyFrom: async (statement, chunks) => {
      await pipeline(Readable.from(chunks), client.query(copyFromStdin(statement)));
    },
    async close() {
      await db.destroy();
      await client.end();
    },
  };
}

/** Connections of the pool that keeps generic plans (`Database.planned`): its statements are short. */
const PLANNED_POOL_SIZE = 4;

/**
 * One round trip, for readiness and health checks, given up after the acquire timeout: a probe must
 * answer quickly, even while the pool waits for a stalled server.
 */
export async function ping(database: Database): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    const ms = database.timeouts?.acquireMs;
    if (ms) timer = setTimeout(() => reject(new Error(`The database did not answer within ${ms} ms.`)), ms);
  });
  try {
    await Promise.race([sql`select 1`.execute(database.db), late]);
  } finally {
    clearTimeout(timer);
  }
}
