import { randomUUID } from 'node:crypto';
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
 *   connection counts as down within LISTEN_LOSS_BOUND_MS (src/db/listen.ts). From this process's
 *   own `announce` until its notification comes back (sent at commit), the stamp also changes on
 *   every read: a read in that window may see the row before or after the commit, so nothing read
 *   then is kept, and a read right after the commit goes to the database (the writer's own answer,
 *   say `PATCH /organization`'s, shows what it wrote). Other processes see the commit when its
 *   notification reaches them.
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
  // This process's writes announced and not yet heard back, by number, with when they were announced.
  // A transaction rolled back never notifies: its entry goes after OPEN_WRITE_BOUND_MS.
  const self = randomUUID();
  let written = 0;
  const open = new Map<number, number>();
  const forget = (now: number) => {
    for (const [write, at] of open) if (now - at > OPEN_WRITE_BOUND_MS) open.delete(write);
  };
  // Listening starts with the first look at the stamp: one-shot commands (which cache nothing) never
  // open the connection. Until it is up, nothing is cached.
  let stopping: Promise<() => Promise<void>> | null = null;
  const start = () =>
    listen(
      database,
      CHANNEL,
      {
        onNotify: (payload) => {
          connected = true;
          local++;
          if (payload?.startsWith(self)) open.delete(Number(payload.slice(self.length + 1)));
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
      if (open.size > 0) forget(performance.now());
      return connected && open.size === 0 ? local : ++local;
    },
    announce: async (trx) => {
      local++;
      const write = ++written;
      open.set(write, performance.now());
      await sql`select pg_notify(${CHANNEL}, ${`${self}:${write}`})`.execute(trx);
    },
    close: async () => {
      if (stopping) await (await stopping)();
    },
  };
}

/**
 * How long a write this process announced keeps its caches from keeping anything, at most, when its
 * notification does not come back (its transaction was rolled back, or the listening connection
 * dropped it): a transaction that commits later than this may leave a cache the row from before it
 * until its notification arrives.
 */
export const OPEN_WRITE_BOUND_MS = 30_000;

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
