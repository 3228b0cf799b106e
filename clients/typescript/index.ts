/**
 * A typed client of the Academy API v1: openapi-fetch over the types that openapi-typescript
 * generates from the OpenAPI document (schema.ts, `npm run client`). Paths, parameters, bodies,
 * responses and error codes are checked by the compiler:
 *
 *   const academy = createAcademyClient({ baseUrl: 'https://academy.example', token: 'acd_…' });
 *   const { data, error } = await academy.GET('/api/v1/courses/{course}', { params: { path: { course: 'pm-101' } } });
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths, webhooks } from './schema.ts';

export type { components, operations, paths, webhooks };

/** The named schemas: `Schemas['Course']`, `Schemas['CourseList']`, `Schemas['Error']`, … */
export type Schemas = components['schemas'];

/** Every error body; `code` is narrowed per response (e.g. `'not_found'` for a 404). */
export type ApiError = Schemas['Error'];

export type AcademyClient = Client<paths>;

export interface AcademyClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The server's origin, e.g. `https://academy.example` (the paths carry `/api/v1`). */
  baseUrl: string;
  /** A bearer token (`acd_…`), created with `academy tokens create`. */
  token: string;
}

export function createAcademyClient({ baseUrl, token, headers, ...options }: AcademyClientOptions): AcademyClient {
  return createClient<paths>({
    ...options,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...(headers as Record<string, string> | undefined), Authorization: `Bearer ${token}` },
  });
}

/** The `rel="next"` target of an RFC 8288 `Link` header, or null on the last page. */
export function nextLink(link: string | null): string | null {
  for (const part of link?.split(',') ?? []) {
    const match = /^\s*<([^>]*)>\s*;(.*)$/.exec(part);
    if (match && /(^|;)\s*rel="?next"?\s*(;|$)/.test(match[2] as string)) return match[1] as string;
  }
  return null;
}
