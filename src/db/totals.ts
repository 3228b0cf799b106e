import { type CompiledQuery, type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Dialect } from './database.ts';
import { executePrepared } from './prepared.ts';
import type { DB } from './schema.ts';

/**
 * Totals of lists that cost more to count than to page (ADR 0015): each is counted once and kept
 * with the database's version at that moment, and given again while the version is the same, that
 * is while nothing was written since; so are their pages (ADR 0017), read again only after a
 * change. The version changes with every committed write, whoever makes it:
 *
 * - PostgreSQL: the statement's snapshot (`pg_current_snapshot()`: the oldest and next transaction
 *   ids and those in progress). Two equal snapshots see exactly the same committed rows; any
 *   writing transaction anywhere on the server takes a new id and changes it.
 * - SQLite: `data_version` (changes when another connection commits) and this connection's
 *   `total_changes()` (rows it inserted, updated or deleted, rolled back ones too).
 *
 * The count and its version come from one statement, so they describe the same data. Checking costs
 * one small statement (a round trip on PostgreSQL); a list whose count is cheap does not need this.
 */
export interface KeptTotals {
  /**
   * The total of `query`'s rows read through `executor`, a snapshot the caller holds and read a page
   * of the same list in (SQLite; on PostgreSQL a page is read with its version and count in one
   * statement, `known` and `remember`): the kept total when it was counted at the version read in
   * that snapshot (or at `at`, the version `atOneVersion` read), else the rows counted there (and kept).
   */
  count(query: SelectQueryBuilder<DB, any, any>, executor: Kysely<DB>, at?: string): Promise<number>;
  /**
   * SQLite with reader threads: `read`'s statements run on `readers`, between two reads of this
   * database's version (the main connection's, `at`), and its answer is given when the two are the
   * same: no commit came between them, so every statement saw that version, as in one snapshot
   * (`count` is then given `at`: a reader's own version is not comparable with the main one's).
   * Undefined when a commit came between (or no version could be read): read again in a snapshot.
   */
  atOneVersion<T>(readers: Kysely<DB>, read: (executor: Kysely<DB>, at: string) => Promise<T>): Promise<T | undefined>;
  /** PostgreSQL: the database's version as a column, to read with a page; null on SQLite, where checking costs no round trip. */
  readonly versionColumn: RawBuilder<string> | null;
  /** The database whose totals these are. */
  readonly db: Kysely<DB>;
  /**
   * The last total counted for `query`'s filter, whatever has been written since, or undefined: a
   * hint of how many rows match, to choose how to read a page (never an answer).
   */
  hint(query: SelectQueryBuilder<DB, any, any>): number | undefined;
  /** The total kept for `query` if it was counted at `version`, else undefined (nothing is counted). */
  known(query: SelectQueryBuilder<DB, any, any>, version: string): number | undefined;
  /** Keeps a total that the caller counted at `version` (with a page, in one statement). */
  remember(query: SelectQueryBuilder<DB, any, any>, version: string, total: number): void;
  /**
   * A whole page (its rows and total) of a list whose total is kept, kept the same way (ADR 0017):
   * given again while the database's version is the one read before `read` ran, otherwise read
   * again. The page is named by its count's query (the list's filters, not how its rows are read)
   * and `window` (its order and place). Requests that see one version share one read.
   */
  page<T extends { items: readonly unknown[] }>(
    query: SelectQueryBuilder<DB, any, any>,
    window: string,
    read: () => Promise<T>,
  ): Promise<T>;
  /** Counts given from the kept ones and counted again, pages given again and read, and version checks sent, since the process started. */
  readonly stats: { kept: number; counted: number; pagesKept: number; pagesRead: number; versionChecks: number };
  /** Drops every kept total and page: the next request of each reads them again (the benchmark measures reading so). */
  forget(): void;
}

/** Totals kept per database; the oldest is dropped past this many (a text of each filter). */
const MAX_KEPT = 500;
/**
 * Totals of at least this many rows are kept apart from the smaller ones, MAX_KEPT of each: a
 * stream of new small totals (a full name's few hundred students, an email's one, each counted with
 * its page for next to nothing) pushed a surname's or a first name's 16,700 out within a second, and
 * each of those was counted again (10–90 ms on PostgreSQL) on most of its requests.
 */
const DEAR_TOTAL = 1000;
/** Pages kept per database, and their rows in all (a page holds up to the largest page size's rows). */
const MAX_PAGES = 200;
const MAX_PAGE_ROWS = 20_000;

/** The database's version as a column: it changes with every committed write, whoever makes it (see KeptTotals). */
export function databaseVersion(dialect: Dialect): RawBuilder<string> {
  return dialect === 'postgres'
    ? sql<string>`pg_current_snapshot()::text`
    : sql<string>`(select data_version from pragma_data_version) || ':' || total_changes()`;
}

/** The statement that reads the database's version alone (`databaseVersion`), compiled for `db`. */
export function versionCheck(db: Kysely<DB>, dialect: Dialect): CompiledQuery<{ version: string }> {
  return sql<{ version: string }>`select ${databaseVersion(dialect)} as version`.compile(db);
}

const byDatabase = new WeakMap<Kysely<DB>, KeptTotals>();

/** The kept totals of this database (one set per process and database, whoever asks). */
export function keptTotals(db: Kysely<DB>, dialect: Dialect): KeptTotals {
  let totals = byDatabase.get(db);
  if (!totals) {
    totals = createKeptTotals(db, dialect);
    byDatabase.set(db, totals);
  }
  return totals;
}

/**
 * Totals by their filters' names, the least recently used dropped first, MAX_KEPT of those under
 * DEAR_TOTAL rows and MAX_KEPT of the others. `set` makes a total the most recently used of its kind.
 */
function keptByCost() {
  type Kept = { version: string; total: number };
  const small = new Map<string, Kept>();
  const dear = new Map<string, Kept>();
  return {
    get: (key: string): Kept | undefined => dear.get(key) ?? small.get(key),
    set(key: string, kept: Kept): void {
      const into = kept.total >= DEAR_TOTAL ? dear : small;
      into.delete(key);
      into.set(key, kept);
      if (into.size > MAX_KEPT) into.delete(into.keys().next().value as string);
    },
    /** Drops `key`'s total, or every total. */
    forget(key?: string): void {
      if (key === undefined) {
        small.clear();
        dear.clear();
      } else {
        small.delete(key);
        dear.delete(key);
      }
    },
  };
}

function createKeptTotals(db: Kysely<DB>, dialect: Dialect): KeptTotals {
  const version = databaseVersion(dialect);
  const check = versionCheck(db, dialect);
  const kept = keptByCost();
  // Query builders are immutable: the one a list asks a hint for and then counts is compiled once.
  const statements = new WeakMap<SelectQueryBuilder<DB, any, any>, CompiledQuery<{ total: number | string; version: string }>>();
  const counting = (query: SelectQueryBuilder<DB, any, any>) => {
    let counted = statements.get(query);
    if (!counted) {
      counted = query
        .clearSelect()
        .select([sql<number | string>`count(*)`.as('total'), version.as('version')])
        .compile();
      statements.set(query, counted);
    }
    return counted;
  };
  const keep = (key: string, version: string, total: number) => {
    stats.counted++;
    kept.forget(key);
    kept.set(key, { version, total });
  };
  // A filter's name: its statement's text and parameters, made once per compiled statement (a list
  // that keeps its builders asks for it on every request).
  const keys = new WeakMap<CompiledQuery, string>();
  const keyOf = (compiled: CompiledQuery) => {
    let key = keys.get(compiled);
    if (key === undefined) {
      key = `${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`;
      keys.set(compiled, key);
    }
    return key;
  };
  const stats = { kept: 0, counted: 0, pagesKept: 0, pagesRead: 0, versionChecks: 0 };
  // One version check in flight at a time; the requests that arrive meanwhile share the next. A
  // request must see a version read after it arrived (so that what it or anyone committed before is
  // in it), so it cannot take the answer of a check already sent; the next is sent when that one is
  // answered, for all of them at once. However many requests come at once, at most two checks are
  // out or waiting, rather than a round trip and a pool connection per request on PostgreSQL. A check
  // that hangs holds the next until the statement time-out ends it: the requests that took it get its
  // error, and the next is sent then for those that waited.
  let sent: Promise<string | undefined> | null = null;
  let queued: Promise<string | undefined> | null = null;
  const send = (): Promise<string | undefined> => {
    stats.versionChecks++;
    const checking = executePrepared(db, check).then((rows) => rows[0]?.version);
    sent = checking;
    const answered = () => {
      if (sent === checking) sent = null;
    };
    checking.then(answered, answered);
    return checking;
  };
  const readVersion = (): Promise<string | undefined> => {
    if (!sent) return send();
    queued ??= sent
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        queued = null;
        return send();
      });
    return queued;
  };
  const pages = new Map<string, { version: string; page: { items: readonly unknown[] } }>();
  let pageRows = 0;
  const dropPage = (key: string) => {
    const dropped = pages.get(key);
    if (!dropped) return;
    pageRows -= dropped.page.items.length;
    pages.delete(key);
  };
  /** Pages being read, by key and the version read before. */
  const reading = new Map<string, Promise<unknown>>();

  return {
    stats,
    forget: () => {
      kept.forget();
      pages.clear();
      pageRows = 0;
    },
    async page<T extends { items: readonly unknown[] }>(
      query: SelectQueryBuilder<DB, any, any>,
      window: string,
      read: () => Promise<T>,
    ): Promise<T> {
      const key = `${keyOf(counting(query))}\u0000${window}`;
      const current = await readVersion();
      const known = pages.get(key);
      if (known && current !== undefined && known.version === current) {
        stats.pagesKept++;
        return known.page as T;
      }
      if (current === undefined) return read();
      // Read after the version was: the page holds at least what that version holds, and any write
      // since changes the version, so the next request reads again (never a stale page).
      const shared = `${key}\u0000${current}`;
      const running = reading.get(shared);
      if (running) return running as Promise<T>;
      const pending = read().then((page) => {
        stats.pagesRead++;
        dropPage(key);
        pages.set(key, { version: current, page });
        pageRows += page.items.length;
        // The least recently read go first (a kept page given again is not moved: reads are what cost).
        while ((pages.size > MAX_PAGES || pageRows > MAX_PAGE_ROWS) && pages.size > 1) dropPage(pages.keys().next().value as string);
        return page;
      });
      reading.set(shared, pending);
      try {
        return await pending;
      } finally {
        reading.delete(shared);
      }
    },
    versionColumn: dialect === 'postgres' ? version : null,
    db,
    hint: (query) => kept.get(keyOf(counting(query)))?.total,
    known(query, version) {
      const key = keyOf(counting(query));
      const known = kept.get(key);
      if (!known || known.version !== version) return undefined;
      stats.kept++;
      kept.set(key, known);
      return known.total;
    },
    remember(query, version, total) {
      keep(keyOf(counting(query)), version, total);
    },
    async atOneVersion(readers, read) {
      const before = await readVersion();
      if (before === undefined) return undefined;
      const answer = await read(readers, before);
      // A total kept at `before` by a read that a commit overtook is never given: versions only grow.
      return (await readVersion()) === before ? answer : undefined;
    },
    async count(query, executor, at) {
      const statement = counting(query);
      const key = keyOf(statement);
      const known = kept.get(key);
      const current = at ?? (await executePrepared(executor, check))[0]?.version;
      if (known && current === known.version) {
        stats.kept++;
        kept.set(key, known);
        return known.total;
      }
      // Not prepared: a generic plan cannot see how selective a search text is.
      const { rows } = await executor.executeQuery(statement);
      const row = rows[0] as { total: number | string; version: string };
      const total = Number(row.total);
      keep(key, at ?? row.version, total);
      return total;
    },
  };
}
