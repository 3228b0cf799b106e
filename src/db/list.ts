import { type Kysely, PostgresAdapter, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { executePrepared } from './prepared.ts';
import { holdsState, readSnapshot } from './snapshot.ts';
import type { KeptTotals } from './totals.ts';

/** One page of a list: 1-based page number, its size, and the rows to skip. */
export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

export interface Page<T> {
  items: T[];
  total: number;
  /**
   * A kept page's identity (ADR 0017): the same object for as long as the page is current, so that
   * what is made from the page (its serialized answer, src/http/representations.ts) can be kept with
   * it. Only pages of a kept list have it; `mapPage` carries it over.
   */
  kept?: object;
}

/** A kept page's items mapped, by the items mapped and the function that mapped them (the last one). */
const mappedPages = new WeakMap<readonly unknown[], { present: (item: never) => unknown; page: Page<unknown> }>();

/**
 * The page with each item mapped by `present`, which must depend on the item alone (not on the clock
 * or on who asks): a kept page's answer is made once and sent again while the page is current. A
 * kept page is mapped once by each function (a function of the module, not one made per call): its
 * items are the same array for as long as it is kept, and so are the mapped ones.
 */
export function mapPage<T, U>(page: Page<T>, present: (item: T) => U): Page<U> {
  if (!page.kept) return { items: page.items.map(present), total: page.total };
  const known = mappedPages.get(page.items);
  if (known?.present === present) return known.page as Page<U>;
  const mapped: Page<U> = { items: page.items.map(present), total: page.total, kept: page.kept };
  mappedPages.set(page.items, { present, page: mapped });
  return mapped;
}

export type Direction = 'asc' | 'desc';

/** How a list is read: the page, the order, and `updated_since`. Filters are the repository's own. */
export interface ListRequest<S extends string = string> {
  page: PageRequest;
  sort: S;
  direction: Direction;
  /** RFC 3339; only rows changed at or after it. */
  updatedSince?: string | undefined;
}

export interface ListColumns<S extends string> {
  /** The column of each sort key the API offers. */
  sort: Record<S, string>;
  /** Breaks ties so that every order is stable across pages (default `id`). */
  id?: string;
  /** What `updated_since` compares with (default `updated_at`). */
  updatedAt?: string;
}

/**
 * Reads one page of a filtered query: ordered by the requested key with ties broken by id (in the
 * same direction), limited to `updated_since`, with the total of the whole filtered list. The query
 * comes with its filters and selection; this adds order, window and count. The page and its total
 * are read in one state of `db`, the database the query reads: on PostgreSQL in one statement, on
 * SQLite in one read transaction. Read apart, a row committed between them showed a last page of
 * two rows beside a total that gave it three.
 */
export async function listPage<O, S extends string>(
  db: Kysely<any>,
  query: SelectQueryBuilder<any, any, O>,
  request: ListRequest<S>,
  columns: ListColumns<S>,
  options: ListCount = {},
): Promise<Page<O>> {
  const since = <Q extends SelectQueryBuilder<any, any, any>>(q: Q): Q =>
    request.updatedSince === undefined
      ? q
      : (q.where(sql.ref(columns.updatedAt ?? 'updated_at'), '>=', new Date(request.updatedSince).toISOString()) as Q);
  const filtered = since(query);
  const run = <R>(q: SelectQueryBuilder<any, any, R>): Promise<R[]> => (options.prepared ? executePrepared(db, q.compile()) : q.execute());
  const sortColumn = columns.sort[request.sort];
  const idColumn = columns.id ?? 'id';
  // The page's statement is built only when the page is read (a kept page is given without it).
  /** The rows a window in `direction` reads its first `rows` of (ListCount.windowed), else `filtered`. */
  const windowOf = (direction: Direction, rows: number) => (options.windowed ? since(options.windowed(direction, rows)) : filtered);
  const sortedRows = () => {
    const ordered = windowOf(request.direction, request.page.offset + request.page.perPage).orderBy(sql.ref(sortColumn), request.direction);
    // One term when the sort is the id: an index that gives rows in id order (SQLite's FTS5) is used only for a lone ORDER BY term.
    return sortColumn === idColumn ? ordered : ordered.orderBy(sql.ref(idColumn), request.direction);
  };
  // The list's filters as a query without columns (the count's, or the list's own): what a count
  // counts, and what a kept page is named by. Not built when neither needs it (a function or a
  // query of `total` gives the total of a list that is not kept).
  const count = options.count;
  const kept = options.kept;
  if (kept && typeof count === 'function') throw new Error('listPage: a kept list is named by its count query, not a count function');
  if (options.nearerEnd && (!options.decorate || !options.keepCount)) {
    throw new Error('listPage: nearerEnd needs a kept count and a decorate that orders the rows itself');
  }
  const filters =
    typeof count === 'function' || (!kept && options.total)
      ? null
      : count
        ? since(count as SelectQueryBuilder<any, any, any>)
        : filtered.clearSelect();
  // A kept list keeps its pages with their totals; one that says so also counts its total once per
  // version, shared by every page of its filters (KeptTotals.count).
  const keptCount = kept && filters && options.keepCount === true && options.total === undefined ? { kept, filters } : null;
  const totalOf = () => options.total ?? (filters && !keptCount ? filters.select(sql<number>`count(*)`.as('total')) : null);
  // PostgreSQL, prepared: the page size written into the statement, and no OFFSET on the first page:
  // PostgreSQL guesses that a LIMIT or OFFSET parameter takes a tenth of the rows, finds a generic
  // plan that costly and plans every run again. The few page sizes clients use make a few statements.
  const preparedPage = (sorted: ReturnType<typeof sortedRows>) => {
    const size = sorted.limit(sql.lit(request.page.perPage) as RawBuilder<number>);
    return request.page.offset === 0 ? size : size.offset(request.page.offset);
  };
  const postgres = isPostgres(db);
  const prepared = options.prepared === true && postgres;
  /**
   * The page read from the list's far end when it lies nearer to it among `total` rows (a page past
   * the end reads none), or null: read it as usual.
   */
  const fromFarEnd = (total: number): SelectQueryBuilder<any, any, O> | null => {
    const { offset, perPage } = request.page;
    if (!options.nearerEnd || offset <= (total - perPage) / 2) return null;
    const reversed = request.direction === 'asc' ? 'desc' : 'asc';
    const ordered = windowOf(reversed, total - offset).orderBy(sql.ref(sortColumn), reversed);
    const window = (sortColumn === idColumn ? ordered : ordered.orderBy(sql.ref(idColumn), reversed))
      .limit(Math.max(0, Math.min(perPage, total - offset)))
      .offset(Math.max(0, total - offset - perPage));
    return (options.decorate as NonNullable<ListCount['decorate']>)(window); // checked on entry
  };
  const read = async (): Promise<Page<O>> => {
    const sorted = sortedRows();
    const decorate = options.decorate ?? ((rows: SelectQueryBuilder<any, any, O>) => rows);
    const page = decorate(sorted.limit(request.page.perPage).offset(request.page.offset));
    const totalQuery = totalOf();
    if (prepared && totalQuery) return pageWithTotal(db, decorate(preparedPage(sorted)), totalQuery);
    if (!keptCount) {
      if (typeof count === 'function') {
        // A total found otherwise than by a query is the function's own to keep consistent.
        const [items, total] = await Promise.all([run(page), count()]);
        return { items, total };
      }
      return pageAndTotal(db, page, totalQuery as SelectQueryBuilder<any, any, { total: number | string | null }>);
    }
    const { kept, filters } = keptCount;
    if (kept.versionColumn) {
      // The page and the database's version in one statement; the kept total is given while the
      // version is the one it was counted at. Otherwise the page is read again with its count, in one
      // statement (a count apart could see a write committed after the page was read); straight
      // away when no total of these filters is kept. Not prepared: a generic plan of the count
      // cannot see how selective a search text is.
      const hint = kept.hint(filters);
      if (hint !== undefined) {
        // From the far end by the last total, given only if that is the total of the version read.
        const far = fromFarEnd(hint);
        const { items, head } = await pageBeside(
          kept.db,
          sql<{ list_version: string }>`select ${kept.versionColumn} as list_version`,
          far ?? (prepared ? decorate(preparedPage(sorted)) : page),
          prepared && !far,
        );
        const total = head && kept.known(filters, head.list_version);
        // A far page is right only by the total it was read with: another request may have kept a
        // new total of the version read meanwhile.
        if (total !== undefined && (!far || total === hint)) return { items, total };
      }
      const { items, head } = await pageBeside(
        kept.db,
        sql<{
          list_version: string;
          list_total: number | string;
        }>`select ${kept.versionColumn} as list_version, (${filters.select(sql`count(*)`.as('total'))}) as list_total`,
        page,
        false,
      );
      const total = Number(head?.list_total ?? 0);
      if (head) kept.remember(filters, head.list_version, total);
      return { items, total };
    }
    // SQLite: the page, the version and the count (when the kept one is not of this version) in one
    // read transaction; or on the reader threads, given some, at one version of the main connection.
    const inOneState = async (executor: Kysely<any>, at?: string): Promise<Page<O>> => {
      if (options.nearerEnd) {
        const total = await kept.count(filters, executor, at);
        const far = fromFarEnd(total);
        return { items: (await executor.executeQuery((far ?? page).compile())).rows as O[], total };
      }
      const [{ rows }, total] = await Promise.all([executor.executeQuery(page.compile()), kept.count(filters, executor, at)]);
      return { items: rows as O[], total };
    };
    const readers = options.readers && !holdsState(db) ? options.readers : null;
    return (readers && (await kept.atOneVersion(readers, inOneState))) ?? readSnapshot(db, 'sqlite', inOneState);
  };
  if (!kept || !filters || options.keepPages === false) return read();
  // A kept list keeps its whole page per version of the database (ADR 0017), named by its filters
  // (the count's) and its window, whichever way its rows and total are read.
  const window = `${request.sort} ${request.direction} ${request.page.offset} ${request.page.perPage}`;
  const current = await kept.page(filters, window, read);
  return { items: current.items, total: current.total, kept: current };
}

/**
 * A page's rows and the one row of `total` (its `total` column) read in one state of the database: on
 * PostgreSQL in one statement, on SQLite in one read transaction. For lists that build their page's
 * statement themselves (src/modules/students: a page found through counts kept per range of ids).
 * `prepared`: on PostgreSQL a named prepared statement, planned once per connection (`runsPrepared`),
 * for statements whose plan does not depend on the values. `readers` with `kept`: SQLite's reader
 * threads, read on at one version of the main connection (`KeptTotals.atOneVersion`).
 */
export async function pageAndTotal<O>(
  db: Kysely<any>,
  page: SelectQueryBuilder<any, any, O>,
  total: SelectQueryBuilder<any, any, { total: number | string | null }>,
  options: { prepared?: boolean; readers?: Kysely<any> | null; kept?: KeptTotals } = {},
): Promise<Page<O>> {
  if (isPostgres(db)) return pageWithTotal(db, page, total, options.prepared === true);
  const inOneState = async (executor: Kysely<any>): Promise<Page<O>> => {
    const [{ rows: items }, { rows }] = await Promise.all([executor.executeQuery(page.compile()), executor.executeQuery(total.compile())]);
    return { items: items as O[], total: Number(rows[0]?.total ?? 0) };
  };
  // On the reader threads, given some, at one version of the main connection (as `listPage`'s `readers`).
  const { readers, kept } = options;
  return (readers && kept && !holdsState(db) && (await kept.atOneVersion(readers, inOneState))) || readSnapshot(db, 'sqlite', inOneState);
}

/**
 * A `decorate` step (ListCount) for lists whose window is found in an index of their order: the
 * window reads the ids alone, which that index holds, and the page's rows (`rowsOf`: the list's
 * selection, with its joins) are then read by id.
 * Otherwise a planner that must read each row anyway may prefer to sort every row of the filter
 * (SQLite chose sorting the 10,000 staff over walking the staff's name index to the page).
 */
export function rowsById<S extends string>(
  rowsOf: SelectQueryBuilder<any, any, any>,
  request: ListRequest<S>,
  columns: ListColumns<S>,
): (window: SelectQueryBuilder<any, any, any>) => SelectQueryBuilder<any, any, any> {
  const id = columns.id ?? 'id';
  const sort = columns.sort[request.sort];
  return (window) => {
    const page = rowsOf.where(sql.ref(id), 'in', window.clearSelect().select(sql.ref(id).as('id')));
    return (sort === id ? page : page.orderBy(sql.ref(sort), request.direction)).orderBy(sql.ref(id), request.direction);
  };
}

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** PostgreSQL: the page and its total in one statement (`pageBeside`), prepared or not. */
async function pageWithTotal<O>(
  db: Kysely<any>,
  page: SelectQueryBuilder<any, any, O>,
  total: SelectQueryBuilder<any, any, { total: number | string | null }>,
  prepared = true,
): Promise<Page<O>> {
  const { items, head } = await pageBeside(
    db,
    sql<{ list_total: number | string | null }>`select total as list_total from (${total}) as list_count`,
    page,
    prepared,
  );
  return { items, total: Number(head?.list_total ?? 0) };
}

/**
 * PostgreSQL: a page's rows and the one row of `head` (its total, the database's version) in one
 * statement, one round trip instead of two (each costs both processes a wakeup and a socket write,
 * more than these statements cost to run), and both read in the statement's one snapshot: the
 * head's row is joined to the page's rows, and kept (with null columns) when the page is empty, which
 * is told by a column the page is given (`list_row`). The head's columns are named `list_…`, which no
 * page selects.
 */
async function pageBeside<O, H extends Record<`list_${string}`, unknown>>(
  db: Kysely<any>,
  head: SelectQueryBuilder<any, any, H> | RawBuilder<H>,
  page: SelectQueryBuilder<any, any, O>,
  prepared: boolean,
): Promise<{ items: O[]; head: H | undefined }> {
  const marked = page.select(sql<number>`1`.as('list_row'));
  const compiled = sql<
    H & O
  >`select list_head.*, list_page.* from (${head}) as list_head left join lateral (${marked}) as list_page on true`.compile(db);
  const rows = prepared ? await executePrepared(db, compiled) : (await db.executeQuery(compiled)).rows;
  const first = rows[0];
  if (!first) return { items: [], head: undefined };
  const values: Record<string, unknown> = {};
  const columns: string[] = [];
  for (const column in first) {
    if (column.startsWith('list_')) values[column] = (first as Record<string, unknown>)[column];
    else columns.push(column);
  }
  const items: O[] = [];
  for (const row of rows as Record<string, unknown>[]) {
    if (row.list_row === null) continue;
    const item: Record<string, unknown> = {};
    for (const column of columns) item[column] = row[column];
    items.push(item as O);
  }
  return { items, head: values as H };
}

/** Statements kept per process by `builtOnce`, by default (all dropped together when full). */
const MAX_BUILT = 500;

/**
 * A list's statements built once per filter, at most `max` of them, all dropped together when full.
 * Query builders are immutable, so the same objects serve every request with those filters: the
 * kept totals then find the count they compiled for them (KeptTotals), and a kept page costs no
 * query building or compiling. The key must name everything the statements depend on.
 */
export function builtOnce<T>(max = MAX_BUILT): (key: string, build: () => T) => T {
  const built = new Map<string, T>();
  return (key, build) => {
    let statements = built.get(key);
    if (statements === undefined) {
      if (built.size >= max) built.clear();
      statements = build();
      built.set(key, statements);
    }
    return statements;
  };
}

/**
 * How a list's total is found, when counting the rows of its query is not the cheapest way: another
 * query with the same filters (without joins that only add columns; `updated_since` is applied to it
 * too), or a function that knows the total otherwise (e.g. from counters kept with the rows).
 */
export interface ListCount {
  /**
   * With `kept`, a query names the list's filters: its kept pages are kept under it, also when
   * `total` gives the total (the query is then not run).
   */
  count?: SelectQueryBuilder<any, any, any> | (() => Promise<number>);
  /**
   * A query whose one row's `total` is the total, found otherwise than by counting (e.g. a sum of
   * counters kept with the rows); `updated_since` is not applied to it.
   */
  total?: SelectQueryBuilder<any, any, { total: number | string | null }>;
  /**
   * Pages kept per version of the data, each with its total (src/db/totals.ts, ADR 0017): a page is
   * read again only after a write, the way it would be read without this. Kept rows are shared by
   * requests: callers map them to new objects and never change them.
   */
  kept?: KeptTotals;
  /**
   * With `kept`, and neither `total` nor a `count` function: the total is also kept per version, by
   * the list's filters, and given with any page of them read at that version (a total that costs more
   * than a page). A page read at another version is read with its count: on PostgreSQL in one
   * statement with the version (`pageBeside`), on SQLite in one read transaction.
   */
  keepCount?: boolean;
  /** False: the caller keeps the whole page itself (the total may still be kept, `keepCount`). */
  keepPages?: boolean;
  /**
   * Runs the page and the count as named prepared statements on PostgreSQL, planned once per
   * connection (`runsPrepared`): for lists whose best plan does not depend on the values, such as
   * filters on ids. Planning the join of a list cost PostgreSQL more than running it. Not for filters
   * whose values differ in selectivity (a status, a date): a generic plan would serve them all with
   * the plan of none.
   */
  prepared?: boolean;
  /**
   * Adds what is costly to compute to the page's rows once the window has chosen them: given the
   * ordered, windowed query, a query over it (`selectFrom(rows.as('page'))`) that selects its
   * columns and more, in the same order. SQLite computes every selected column of every row it
   * sorts, before the window keeps a page of them.
   */
  decorate?: (rows: SelectQueryBuilder<any, any, any>) => SelectQueryBuilder<any, any, any>;
  /**
   * With a kept count (`keepCount`): a page past the middle of the list is read from its other end,
   * the window reversed, skipping the rows after it instead of those before (half the rows at
   * most), by the total of the version it is read at (PostgreSQL: the last total, checked against
   * the version the page was read at, else read again as usual). `decorate` must order the page's
   * rows itself.
   */
  nearerEnd?: boolean;
  /**
   * SQLite, with a kept count: its reader threads (`Database.readers`, ADR 0027), on which the page
   * and its count are read beside the main thread, at one version of the main connection
   * (`KeptTotals.atOneVersion`; read again in a snapshot on the main connection when a commit came
   * between). Null or absent: on the main connection.
   */
  readers?: Kysely<any> | null;
  /**
   * The list's rows for a window in `direction` that needs no more than their first `rows` in that
   * order (the page's, with the tie-break on id): a query that reads fewer rows than the list's own,
   * for a union whose parts each give their first `rows` (PostgreSQL sorts all of a union's rows to
   * keep a page of them, where each part's index gives its rows in order). Absent: the list's query.
   */
  windowed?: (direction: Direction, rows: number) => SelectQueryBuilder<any, any, any>;
}
