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
  /** PostgreSQL: how often this process looked up writes of its own not heard back (`pg_xact_status`). */
  readonly stats?: { readonly lookUps: number };
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
  // This process's writes announced and not yet heard back, by number: when each was announced and
  // its transaction's id. A notification can fail to come back: its transaction was rolled back, or
  // it committed while the listening connection was not (yet) up. Writes not heard back within
  // UNHEARD_WRITE_CHECK_MS are looked up (`pg_xact_status`): a committed or rolled-back one is over,
  // one still in progress stays.
  const self = randomUUID();
  let written = 0;
  const open = new Map<number, { at: number; xid: string }>();
  let looking = false;
  // At most one look-up per UNHEARD_WRITE_CHECK_MS (but the one when the listener comes up): a
  // transaction that stays open long after its announcement is not asked about on every read.
  let nextLookUp = 0;
  const stats = { lookUps: 0 };
  /** Looks up the writes not heard back for UNHEARD_WRITE_CHECK_MS, or all of them (`since` 0). */
  const lookUp = (now: number, since = UNHEARD_WRITE_CHECK_MS) => {
    if (looking || (since > 0 && now < nextLookUp)) return;
    // The oldest first (a Map keeps the order of insertion): on most reads, one comparison.
    const oldest = open.values().next().value;
    if (oldest === undefined || now - oldest.at < since) return;
    // Past CACHE_MAX_AGE_MS a write is let go however its look-ups went (a database that cannot say,
    // a status that cannot be read): caches keep nothing for longer than that bound anyway.
    for (const [number, write] of open) {
      if (now - write.at < CACHE_MAX_AGE_MS) break;
      open.delete(number);
      local++;
    }
    const due = [...open].filter(([, write]) => write.xid !== '' && now - write.at >= since);
    if (due.length === 0) return;
    looking = true;
    nextLookUp = now + UNHEARD_WRITE_CHECK_MS;
    stats.lookUps++;
    sql<{
      xid: string;
      status: string | null;
    }>`select xid, pg_xact_status(xid::xid8) as status from unnest(${due.map(([, write]) => write.xid)}::text[]) as xid`
      .execute(database.db)
      .then(
        ({ rows }) => {
          const over = new Set(rows.filter((row) => row.status !== 'in progress').map((row) => row.xid));
          for (const [number, write] of due) {
            if (!over.has(write.xid)) continue;
            open.delete(number);
            // As its notification would have: what was kept before the commit may be older than it.
            local++;
          }
        },
        // The database is unreachable: the writes stay open (nothing is kept) and are looked up again.
        () => {},
      )
      .finally(() => {
        looking = false;
      });
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
          // The listener is (again) up: what committed while it was not will never be heard back.
          else if (payload === undefined && open.size > 0) lookUp(performance.now(), 0);
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
      if (open.size === 0) return connected ? local : ++local;
      lookUp(performance.now());
      return ++local;
    },
    announce: async (trx) => {
      local++;
      const write = ++written;
      // Nothing is kept from here on: the entry is made before the statement is sent.
      const entry = { at: performance.now(), xid: '' };
      open.set(write, entry);
      try {
        const { rows } = await sql<{
          xid: string;
        }>`select pg_notify(${CHANNEL}, ${`${self}:${write}`}), pg_current_xact_id()::text as xid`.execute(trx);
        entry.xid = rows[0]?.xid ?? '';
      } catch (error) {
        // The transaction cannot commit now: it announced nothing.
        open.delete(write);
        throw error;
      }
    },
    close: async () => {
      if (stopping) await (await stopping)();
    },
    stats,
  };
}

/**
 * How long a write this process announced may go unheard (no notification back) before its
 * transaction's status is looked up. Until then, and while it is in progress, caches keep nothing.
 */
export const UNHEARD_WRITE_CHECK_MS = 250;

/**
 * The longest a value stays cached however quiet the change feed is: a change it cannot report (a row
 * edited by hand in the database, a lost notification) is seen within this bound.
 */
export const CACHE_MAX_AGE_MS = 30_000;

/**
 * A small read-through cache that empties itself when the change feed moves. Only found values are
 * kept (a flood of unknown keys cannot grow it), and it is bounded in size and age.
 *
 * Misses of one key while the feed stands still share one load: when a change or the age bound
 * empties the cache under load, every request in flight misses at once, and each would otherwise
 * send the same query, and take a connection of its own, which the pool opens (a new PostgreSQL
 * process each) and closes again once idle.
 */
export function createReadCache<K, V>(changes: ChangeFeed, options: { max?: number; maxAgeMs?: number } = {}) {
  const max = options.max ?? 10_000;
  const maxAgeMs = options.maxAgeMs ?? CACHE_MAX_AGE_MS;
  const entries = new Map<K, { value: V; loadedAt: number }>();
  const loading = new Map<K, { stamp: number; value: Promise<V | undefined> }>();
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

  function load(key: K, loader: () => Promise<V | undefined>): Promise<V | undefined> {
    const stamp = changes.stamp();
    // A load begun since the last change is as fresh as one begun now would be.
    const pending = loading.get(key);
    if (pending?.stamp === stamp) return pending.value;
    const loadedAt = performance.now();
    let started: Promise<V | undefined>;
    try {
      started = loader();
    } catch (error) {
      // A loader that throws at once fails like one that rejects: a miss answers with a promise.
      return Promise.reject(error);
    }
    const value = started.then((found) => {
      // Keep it only if nothing changed while it was loading.
      if (found !== undefined && changes.stamp() === stamp) {
        if (entries.size >= max) entries.clear();
        entries.set(key, { value: found, loadedAt });
      }
      return found;
    });
    const entry = { stamp, value };
    loading.set(key, entry);
    const settled = () => {
      if (loading.get(key) === entry) loading.delete(key);
    };
    value.then(settled, settled);
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
    /** The cached value, or undefined: never a load. */
    peek,
  };
}
