import { type SelectQueryBuilder, sql } from 'kysely';

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
): Promise<Page<O>> {
  let filtered = query;
  if (request.updatedSince !== undefined) {
    filtered = filtered.where(sql.ref(columns.updatedAt ?? 'updated_at'), '>=', new Date(request.updatedSince).toISOString());
  }
  const [items, count] = await Promise.all([
    filtered
      .orderBy(sql.ref(columns.sort[request.sort]), request.direction)
      .orderBy(sql.ref(columns.id ?? 'id'), request.direction)
      .limit(request.page.perPage)
      .offset(request.page.offset)
      .execute(),
    filtered.clearSelect().select(sql<number>`count(*)`.as('total')).executeTakeFirstOrThrow() as Promise<{ total: number | string }>,
  ]);
  return { items, total: Number(count.total) };
}
