import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { runsPrepared } from './database.ts';
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
 * comes with its filters and selection; this adds order, window and count.
 */
export async function listPage<O, S extends string>(
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
  const run = async <R>(q: SelectQueryBuilder<any, any, R>): Promise<R[]> => {
    if (!options.prepareOn) return q.execute();
    const compiled = q.compile();
    runsPrepared(compiled.sql);
    return (await options.prepareOn.executeQuery(compiled)).rows;
  };
  const countQuery = () => (options.count ? since(options.count as SelectQueryBuilder<any, any, any>) : filtered.clearSelect());
  const counted =
    typeof options.count === 'function' ? options.count() : options.kept ? options.kept.count(countQuery()) : countRows(countQuery(), run);
  const sortColumn = columns.sort[request.sort];
  const idColumn = columns.id ?? 'id';
  const ordered = filtered.orderBy(sql.ref(sortColumn), request.direction);
  const [items, total] = await Promise.all([
    // One term when the sort is the id: an index that gives rows in id order (SQLite's FTS5) is used only for a lone ORDER BY term.
    run(
      (sortColumn === idColumn ? ordered : ordered.orderBy(sql.ref(idColumn), request.direction))
        .limit(request.page.perPage)
        .offset(request.page.offset),
    ),
    counted,
  ]);
  return { items, total };
}

/**
 * How a list's total is found, when counting the rows of its query is not the cheapest way: another
 * query with the same filters (without joins that only add columns; `updated_since` is applied to it
 * too), or a function that knows the total otherwise (e.g. from counters kept with the rows).
 */
export interface ListCount {
  count?: SelectQueryBuilder<any, any, any> | (() => Promise<number>);
  /** Totals that cost more than a page are counted once per version of the data (src/db/totals.ts). */
  kept?: KeptTotals;
  /**
   * Runs the page and the count on this database as named prepared statements on PostgreSQL, planned
   * once per connection (`runsPrepared`): for lists whose best plan does not depend on the values,
   * such as filters on ids. Planning the join of a list cost PostgreSQL more than running it. Not for
   * filters whose values differ in selectivity (a status, a date): a generic plan would serve them all
   * with the plan of none.
   */
  prepareOn?: Kysely<any> | undefined;
}

async function countRows(
  query: SelectQueryBuilder<any, any, any>,
  run: <R>(q: SelectQueryBuilder<any, any, R>) => Promise<R[]>,
): Promise<number> {
  const [row] = (await run(query.select(sql<number>`count(*)`.as('total')))) as { total: number | string }[];
  return Number(row?.total ?? 0);
}
