import { type Kysely, sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import { listen } from '../db/listen.ts';
import type { DB } from '../db/schema.ts';

const CHANNEL = 'academy_changes';

/**
 * Tells in-memory caches when what they hold may have changed, in this process or another one.
 * - SQLite: `PRAGMA data_version` moves when another process commits; this process's own writes
 *   call `announce`.
 * - PostgreSQL: writers NOTIFY in their transaction; every process LISTENs. While the listening
 *   connection is down, the stamp changes on every read, so caches hold nothing stale; a stalled
 *   connection counts as down within LISTEN_LOSS_BOUND_MS (src/db/listen.ts).
 */
export interface ChangeFeed {
  /**
   * Differs from any earlier value whenever cached data may be stale. `now` is `performance.now()`
   * when the caller has just read it (one clock read per cache look-up, not two).
   */
  stamp(now?: number): number;
  /** Records a change of cached data; inside the writing transaction on PostgreSQL, so it is sent at commit. */
  announce(trx: Kysely<DB>): Promise<void>;
  close(): Promise<void>;
}

export function createChangeFeed(database: Database, logger: Logger): ChangeFeed {
  let local = 0;
  if (database.dialect === 'sqlite' && database.dataVersion) {
    const dataVersion = database.dataVersion;
    // Reading data_version is itself a statement; under load it is read at most once a millisecond,
    // so another process's commit is seen within a millisecond.
    let version = dataVersion();
    let readAt = performance.now();
    return {
      stamp: (now = performance.now()) => {
        if (now - readAt >= 1) {
          version = dataVersion();
          readAt = now;
        }
        return version * 1_000_000 + local;
      },
      announce: async () => {
        local++;
      },
      close: async () => {},
    };
  }
  let connected = false;
  // Listening starts with the first look at the stamp: one-shot commands (which cache nothing) never
  // open the connection. Until it is up, nothing is cached.
  let stopping: Promise<() => Promise<void>> | null = null;
  const start = () =>
    listen(
      database,
      CHANNEL,
      {
        onNotify: () => {
          connected = true;
          local++;
        },
        onLost: () => {
          connected = false;
        },
      },
      logger,
    );
  return {
    stamp: () => {
      stopping ??= start();
      return connected ? local : ++local;
    },
    announce: async (trx) => {
      local++;
      await sql`select pg_notify(${CHANNEL}, '')`.execute(trx);
    },
    close: async () => {
      if (stopping) await (await stopping)();
    },
  };
}

/**
 * The longest a value stays cached however quiet the change feed is: a change it cannot report (a row
 * edited by hand in the database, a lost notification) is seen within this bound.
 */
export const CACHE_MAX_AGE_MS = 30_000;

/**
 * A small read-through cache that empties itself when the change feed moves. Only found values are
 * kept (a flood of unknown keys cannot grow it), and it is bounded in size and age.
 */
export function createReadCache<K, V>(changes: ChangeFeed, options: { max?: number; maxAgeMs?: number } = {}) {
  const max = options.max ?? 10_000;
  const maxAgeMs = options.maxAgeMs ?? CACHE_MAX_AGE_MS;
  const entries = new Map<K, { value: V; loadedAt: number }>();
  let seen = Number.NaN;

  function peek(key: K): V | undefined {
    const now = performance.now();
    const stamp = changes.stamp(now);
    if (stamp !== seen) {
      entries.clear();
      seen = stamp;
    }
    const entry = entries.get(key);
    if (entry && now - entry.loadedAt > maxAgeMs) {
      entries.delete(key);
      return undefined;
    }
    return entry?.value;
  }

  async function load(key: K, loader: () => Promise<V | undefined>): Promise<V | undefined> {
    const stamp = changes.stamp();
    const loadedAt = performance.now();
    const value = await loader();
    // Keep it only if nothing changed while it was loading.
    if (value !== undefined && changes.stamp() === stamp) {
      if (entries.size >= max) entries.clear();
      entries.set(key, { value, loadedAt });
    }
    return value;
  }

  return {
    /**
     * The cached value at once (no promise, so a hit costs the request no extra tick), or the
     * loader's promise on a miss.
     */
    get(key: K, loader: () => Promise<V | undefined>): V | Promise<V | undefined> {
      return peek(key) ?? load(key, loader);
    },
  };
}
