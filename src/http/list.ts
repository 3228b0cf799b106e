import type { FastifyReply, FastifyRequest } from 'fastify';
import { type TProperties, Type } from 'typebox';
import type { Direction, ListRequest, Page } from '../db/list.ts';
import { ValidationError } from '../platform/errors.ts';
import { PageQuery, pageRequest, paginate } from './pagination.ts';
import { sendCachedPage } from './representations.ts';
import { StringEnum } from './schemas.ts';

const DIRECTIONS = ['asc', 'desc'] as const;
const BOOLEAN_VALUES = ['true', 'false', '1', '0'] as const;

/** A yes/no filter: `true`/`1` or `false`/`0` (anything else is a 422); read it with `booleanFilter`. */
export function BooleanFilter(description: string) {
  return Type.Optional(StringEnum(BOOLEAN_VALUES, { description: `${description} \`true\`/\`1\` or \`false\`/\`0\`.` }));
}

export function booleanFilter(value: (typeof BOOLEAN_VALUES)[number] | undefined): boolean | undefined {
  return value === undefined ? undefined : value === 'true' || value === '1';
}

export interface ListQueryOptions<S extends string, F extends TProperties> {
  /** The sort keys this list offers; the first is the default unless `defaultSort` says otherwise. */
  sort: readonly [S, ...S[]];
  defaultSort?: S;
  defaultDirection?: Direction;
  /** The list's own filters (each `Type.Optional(…)`). */
  filters?: F;
}

/**
 * The query string of a list: `page`, `per_page`, `sort` (an enum of the list's keys), `direction`,
 * `updated_since` and the list's filters. Unknown parameters are ignored; a bad value of a known one
 * is a 422.
 */
export function ListQuery<S extends string, F extends TProperties = Record<never, never>>(options: ListQueryOptions<S, F>) {
  const defaultSort = options.defaultSort ?? options.sort[0];
  const defaultDirection = options.defaultDirection ?? 'asc';
  return Type.Object({
    ...PageQuery,
    sort: Type.Optional(
      StringEnum(options.sort, { description: `Sort key (default \`${defaultSort}\`); ties are broken by id.`, default: defaultSort }),
    ),
    direction: Type.Optional(StringEnum(DIRECTIONS, { description: `Sort direction (default \`${defaultDirection}\`).` })),
    updated_since: Type.Optional(
      Type.String({ format: 'date-time', description: 'Only items changed at or after this RFC 3339 time, to sync what changed.' }),
    ),
    ...((options.filters ?? {}) as F),
  });
}

interface ListQueryValues<S extends string> {
  page?: number | undefined;
  per_page?: number | undefined;
  sort?: S | undefined;
  direction?: Direction | undefined;
  updated_since?: string | undefined;
}

/** Reads the page, order and `updated_since` of a list request (defaults as `ListQuery` documents them). */
export function listRequest<S extends string>(
  query: ListQueryValues<S>,
  options: { maxPageSize: number; defaultSort: S; defaultDirection?: Direction },
): ListRequest<S> {
  return {
    page: pageRequest(query, options.maxPageSize),
    sort: query.sort ?? options.defaultSort,
    direction: query.direction ?? options.defaultDirection ?? 'asc',
    updatedSince: query.updated_since === undefined ? undefined : instantOf(query.updated_since),
  };
}

/**
 * An RFC 3339 date-time the schema accepted, as the instant it names. RFC 3339 allows a leap second
 * (`23:59:60Z`), which JavaScript's dates cannot hold: it is the instant one second after `23:59:59`.
 */
function instantOf(value: string): string {
  const parsed = Date.parse(value);
  if (!Number.isNaN(parsed)) return new Date(parsed).toISOString();
  const leap = /^(.*T\d{2}:\d{2}:)60(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.exec(value);
  const second = leap ? Date.parse(`${leap[1]}59${leap[2] ?? ''}${leap[3]}`) : Number.NaN;
  if (Number.isNaN(second)) throw ValidationError.field('updated_since', 'The updated_since field must be an RFC 3339 date-time.');
  return new Date(second + 1000).toISOString();
}

/**
 * The list envelope and `Link` header of one page. A kept page (`result.kept`, ADR 0017) is sent as
 * the answer kept with it: serialized, hashed and compressed once while the page is current.
 */
export function sendList<T>(request: FastifyRequest, reply: FastifyReply, list: ListRequest, result: Page<T>) {
  if (!result.kept) return paginate(request, reply, list.page, result);
  return sendCachedPage(request, reply, result, list.page, result.kept);
}
