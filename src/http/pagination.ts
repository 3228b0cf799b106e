import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Page, PageRequest } from '../db/list.ts';
import { ValidationError } from '../platform/errors.ts';
import { publicLink } from './links.ts';
import { Nullable } from './schemas.ts';

/** Query parameters every list accepts. Unknown parameters are ignored. */
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description: '1-based page number.', default: 1 })),
  per_page: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: 'Items per page (default 15); values above the configured maximum (ACADEMY_MAX_PAGE_SIZE) are clamped to it.',
    }),
  ),
};

export function pageRequest(query: { page?: number | undefined; per_page?: number | undefined }, maxPageSize: number): PageRequest {
  // `1e309` is coerced to Infinity, which passes the schema's integer check: refused here like any
  // non-integer. An integer past 2^53 (which a double holds only roughly) is still a large per_page,
  // clamped as any other.
  for (const name of ['page', 'per_page'] as const) {
    const value = query[name];
    if (value !== undefined && !Number.isFinite(value)) throw ValidationError.field(name, `The ${name} field must be an integer.`);
  }
  const page = query.page ?? 1;
  const perPage = Math.min(query.per_page ?? 15, maxPageSize);
  return { page, perPage, offset: (page - 1) * perPage };
}

const LINK =
  'A path with its query (e.g. `/api/v1/tasks?page=2&per_page=15`), relative to the URL of the request; an absolute URL when the deployment sets its public URL (`ACADEMY_PUBLIC_URL`).';

export const PaginationLinks = Type.Object({
  first: Type.String({ description: LINK }),
  last: Type.String({ description: LINK }),
  prev: Nullable(Type.String({ description: LINK })),
  next: Nullable(Type.String({ description: LINK })),
});

export const PaginationMeta = Type.Object({
  current_page: Type.Integer(),
  from: Nullable(Type.Integer()),
  last_page: Type.Integer(),
  path: Type.String({ description: "The list's path without query; absolute like the links when the deployment sets its public URL." }),
  per_page: Type.Integer(),
  to: Nullable(Type.Integer()),
  total: Type.Integer(),
});

export function ListOf<T extends Parameters<typeof Type.Array>[0]>(item: T) {
  return Type.Object({ data: Type.Array(item), links: PaginationLinks, meta: PaginationMeta });
}

/**
 * The list envelope (Laravel's shape) and the pagination part of the RFC 8288 Link header of one page.
 * Links keep the request's path and query parameters, relative unless ACADEMY_PUBLIC_URL makes them
 * absolute (src/http/links.ts). Depends only on the request's URL, the page asked for and the total.
 */
export function pageOf<T>(request: FastifyRequest, page: PageRequest, result: Page<T>) {
  // Only the path and query are the request's; the placeholder origin is dropped. One leading slash,
  // so that a path such as `//other.example/…` stays a path.
  const url = new URL(`http://placeholder/${request.url.replace(/^\/+/, '')}`);
  const path = publicLink(request.server.publicUrl, url.pathname);
  const lastPage = Math.max(1, Math.ceil(result.total / page.perPage));
  const link = (n: number) => {
    const params = new URLSearchParams(url.search);
    params.set('page', String(n));
    params.set('per_page', String(page.perPage));
    return `${path}?${params}`;
  };
  const links = {
    first: link(1),
    last: link(lastPage),
    prev: page.page > 1 ? link(Math.min(page.page - 1, lastPage)) : null,
    next: page.page < lastPage ? link(page.page + 1) : null,
  };
  const header = [`<${links.first}>; rel="first"`, `<${links.last}>; rel="last"`];
  if (links.prev) header.push(`<${links.prev}>; rel="prev"`);
  if (links.next) header.push(`<${links.next}>; rel="next"`);
  const from = result.items.length > 0 ? page.offset + 1 : null;
  return {
    envelope: {
      data: result.items,
      links,
      meta: {
        current_page: page.page,
        from,
        last_page: lastPage,
        path,
        per_page: page.perPage,
        to: from === null ? null : page.offset + result.items.length,
        total: result.total,
      },
    },
    link: header.join(', '),
  };
}

/**
 * Adds a page's links to the `Link` header, after the relations already in it (the version's
 * deprecation and sunset links).
 */
export function addLinks(reply: FastifyReply, link: string): void {
  const existing = reply.getHeader('link');
  reply.header('link', existing ? `${String(existing)}, ${link}` : link);
}

/** Builds the list envelope of one page and sets its `Link` header (see pageOf). */
export function paginate<T>(request: FastifyRequest, reply: FastifyReply, page: PageRequest, result: Page<T>) {
  const { envelope, link } = pageOf(request, page, result);
  addLinks(reply, link);
  return envelope;
}
