/**
 * A typed client of the Academy API v1: openapi-fetch over the types that openapi-typescript
 * generates from the OpenAPI document (schema.ts, `npm run client`). Paths, parameters, bodies,
 * responses and error codes are checked by the compiler. On top of openapi-fetch it follows the pages
 * of a list, retries what is safe to retry, and can turn an error answer into a thrown AcademyApiError:
 *
 *   const academy = createAcademyClient({ baseUrl: 'https://academy.example', token: 'acd_…' });
 *   const { data, error } = await academy.GET('/api/v1/courses/{course}', { params: { path: { course: 'pm-101' } } });
 *   const course = await unwrap(academy.GET('/api/v1/courses/{course}', { params: { path: { course: 'pm-101' } } }));
 *   for await (const student of academy.paginate('/api/v1/students', { params: { query: { per_page: 100 } } })) …
 */

import type { Client, ClientOptions, FetchOptions } from 'openapi-fetch';
import createClient from 'openapi-fetch';
import type { components, operations, paths, webhooks } from './schema.ts';

export type { components, operations, paths, webhooks };

/** The named schemas: `Schemas['Course']`, `Schemas['CourseList']`, `Schemas['Error']`, … */
export type Schemas = components['schemas'];

/** Every error body; `code` is narrowed per response (e.g. `'not_found'` for a 404). */
export type ApiError = Schemas['Error'];

type Responses = components['responses'];
type CodeOf<R> = R extends { content: { 'application/json': { code?: infer C } } } ? Exclude<C, undefined> : never;

/** Every error code that the document's error responses name: `'not_found'`, `'validation_failed'`, … */
export type ApiErrorCode = { [R in keyof Responses]: CodeOf<Responses[R]> }[keyof Responses];

/**
 * The codes an AcademyApiError carries: the document's, the two that any operation can answer
 * although the document lists them on none (a 500 `internal_error`, a 503 `unavailable`), and
 * `unexpected_response` for an answer whose body is not the API's error (a proxy's error page).
 */
export type AcademyErrorCode = ApiErrorCode | 'internal_error' | 'unavailable' | 'unexpected_response';

/** The paths that answer GET. */
type GetPath = { [P in keyof paths]: paths[P] extends { get: object } ? P : never }[keyof paths];

/** What a GET of `P` answers with on success. */
type GetBody<P extends GetPath> = paths[P]['get'] extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;

/** The paths of the lists: each answers one page, `{ data: [...], links, meta }`, with `Link` headers. */
export type ListPath = { [P in GetPath]: GetBody<P> extends { data: unknown[]; links: unknown; meta: unknown } ? P : never }[GetPath];

/** One page of the list at `P`: `ListPage<'/api/v1/students'>` is `Schemas['StudentList']`. */
export type ListPage<P extends ListPath> = GetBody<P>;

/** An item of the list at `P`: `ListItem<'/api/v1/students'>` is a student. */
export type ListItem<P extends ListPath> = GetBody<P> extends { data: (infer I)[] } ? I : never;

type RequiredKeys<T> = { [K in keyof T]-?: Pick<T, K> extends Required<Pick<T, K>> ? K : never }[keyof T];
/** The options of a GET of `P`, required when the path has parameters to fill in (as openapi-fetch's GET). */
type ListInit<P extends ListPath> = FetchOptions<paths[P]['get']>;
type ListInitArgs<P extends ListPath> = RequiredKeys<ListInit<P>> extends never ? [init?: ListInit<P>] : [init: ListInit<P>];

/** What `onRetry` is told before the client waits and sends a request again. */
export interface RetryEvent {
  /** The request about to be sent again (its method and URL; its body is already read). */
  request: Request;
  /** The attempt that failed, from 1. */
  attempt: number;
  /** How long the client waits before the next attempt, in ms. */
  delayMs: number;
  /** The 429 or 503 answer, when there was one. */
  response?: Response;
  /** The network error, when there was no answer. */
  error?: unknown;
}

export interface RetryOptions {
  /** Attempts per call, the first included (default 3); 1 turns retries off. */
  maxAttempts?: number;
  /**
   * The longest wait before one retry, in ms (default 60 000, the rate limit's window): a `Retry-After`
   * asking for longer is not waited for, and the 429 or 503 is the call's answer.
   */
  maxDelayMs?: number;
  /** The first wait when the server gives no `Retry-After` (default 500 ms), doubled on each retry, with jitter. */
  baseDelayMs?: number;
  /** Told of each retry before its wait: for logs and metrics. */
  onRetry?: (event: RetryEvent) => void;
}

export interface AcademyClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The server's origin, e.g. `https://academy.example` (the paths carry `/api/v1`). */
  baseUrl: string;
  /** A bearer token (`acd_…`), created with `academy tokens create`. */
  token: string;
  /** How 429, 503 and network errors are retried; `false` sends each request once. */
  retry?: RetryOptions | false;
  /**
   * Makes the `Idempotency-Key` of a POST that has none (default: a random UUID), the same across the
   * retries of one call so that the server carries it out once; `false` sends none, and a POST is then
   * retried only after a 429 or 503, never after a network error.
   */
  idempotencyKey?: (() => string) | false;
}

export interface AcademyClient extends Client<paths> {
  /**
   * Every item of a list, page after page: the first page is the GET of `path` with `init` (its
   * `per_page` is the page size), each next one the `Link` header's `rel="next"`. An error answer
   * throws AcademyApiError.
   */
  paginate<P extends ListPath>(path: P, ...init: ListInitArgs<P>): AsyncGenerator<ListItem<P>, void, undefined>;
  /** Every page of a list (as `paginate`), each with its answer: for `meta.total` or the headers. */
  pages<P extends ListPath>(path: P, ...init: ListInitArgs<P>): AsyncGenerator<{ data: ListPage<P>; response: Response }, void, undefined>;
}

/** An error answer of the API, thrown by `unwrap`, `paginate` and `pages`. */
export class AcademyApiError<C extends string = AcademyErrorCode> extends Error {
  override readonly name = 'AcademyApiError';
  /** The HTTP status, e.g. 404. */
  readonly status: number;
  /** The body's machine-readable code, e.g. `'not_found'` (see AcademyErrorCode). */
  readonly code: C;
  /** Messages by field (dot notation) of a `validation_failed`; empty otherwise. */
  readonly errors: Readonly<Record<string, string[]>>;
  /** The `X-Request-Id` of the answer, to quote to the operators. */
  readonly requestId: string | null;
  /** Where the code is explained: the answer's `Link: <…>; rel="help"`, absolute when the answer's URL is known. */
  readonly helpUrl: string | null;
  /** The answer (its body already read). */
  readonly response: Response;

  constructor(response: Response, body: unknown) {
    const error = isApiError(body) ? body : null;
    super(error?.message ?? `Unexpected ${response.status} answer${typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : ''}`);
    this.status = response.status;
    this.code = (error?.code ?? 'unexpected_response') as C;
    this.errors = error?.errors ?? {};
    this.requestId = response.headers.get('x-request-id');
    const help = linkTarget(response.headers.get('link'), 'help');
    this.helpUrl = help && response.url ? new URL(help, response.url).href : help;
    this.response = response;
  }
}

function isApiError(body: unknown): body is ApiError {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as ApiError).code === 'string' &&
    typeof (body as ApiError).message === 'string'
  );
}

/**
 * The body of a successful call, or an AcademyApiError thrown for any other answer: the throwing style,
 * beside openapi-fetch's `{ data, error }`.
 *
 *   const { data: course } = await unwrap(academy.GET('/api/v1/courses/{course}', { params: { path: { course } } }));
 *
 * A conditional GET that answers 304 throws too (status 304): check `response.status` in the
 * `{ data, error }` style for those.
 */
export async function unwrap<R extends { data?: unknown; error?: unknown; response: Response }>(
  result: R | Promise<R>,
): Promise<NonNullable<R['data']>> {
  const settled = await result;
  if (!settled.response.ok) throw new AcademyApiError(settled.response, settled.error);
  return settled.data as NonNullable<R['data']>;
}

/** The target of the first link of relation `rel` in an RFC 8288 `Link` header, or null. */
export function linkTarget(link: string | null, rel: string): string | null {
  if (!link) return null;
  // `<target>` then its parameters; a quoted value may hold `,` and `;`.
  for (const value of link.matchAll(/<([^>]*)>((?:\s*;\s*[^;,=\s]+(?:\s*=\s*(?:"[^"]*"|[^;,]*))?)*)/g)) {
    for (const param of (value[2] as string).matchAll(/;\s*([^;,=\s]+)(?:\s*=\s*(?:"([^"]*)"|([^;,]*)))?/g)) {
      if ((param[1] as string).toLowerCase() !== 'rel') continue;
      const rels = (param[2] ?? param[3] ?? '').trim().toLowerCase().split(/\s+/);
      if (rels.includes(rel.toLowerCase())) return value[1] as string;
    }
  }
  return null;
}

/** The `rel="next"` target of an RFC 8288 `Link` header, or null on the last page. */
export function nextLink(link: string | null): string | null {
  return linkTarget(link, 'next');
}

/** A `Retry-After` value (seconds, or an HTTP date) as a delay in ms from `now`; null if absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date starts with the day's name (RFC 9110 §5.6.7); Date.parse alone takes `-1` for a year.
  const at = /^[a-z]{3}/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Methods that a repeat cannot do twice (RFC 9110 §9.2.2): retried after a network error too. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

async function randomKey(): Promise<string> {
  if (globalThis.crypto?.randomUUID) return globalThis.crypto.randomUUID();
  // Node.js 18 has Web Crypto as a global only behind a flag.
  const { randomUUID } = await import('node:crypto');
  return randomUUID();
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', aborted);
    };
    const aborted = () => {
      done();
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, ms);
    signal.addEventListener('abort', aborted, { once: true });
  });
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

type Fetch = NonNullable<ClientOptions['fetch']>;

/**
 * A fetch that sends a request again after a 429 or 503 (the server did not carry it out; it waits
 * for `Retry-After` when given), and after a network error when repeating cannot do it twice: an
 * idempotent method, or a request with an `Idempotency-Key`, which a POST gets here.
 */
function retrying(inner: Fetch, retry: RetryOptions | false, idempotencyKey: (() => string) | false | undefined): Fetch {
  const maxAttempts = retry === false ? 1 : Math.max(1, retry.maxAttempts ?? 3);
  const maxDelayMs = retry === false ? 0 : (retry.maxDelayMs ?? 60_000);
  const baseDelayMs = retry === false ? 0 : (retry.baseDelayMs ?? 500);
  const onRetry = retry === false ? undefined : retry.onRetry;
  const backoff = (attempt: number) => Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1) * (0.5 + Math.random() / 2));

  return async (request: Request, ...rest: unknown[]) => {
    const send = inner as (request: Request, ...rest: unknown[]) => Promise<Response>;
    if (request.method === 'POST' && idempotencyKey !== false && !request.headers.has('idempotency-key')) {
      request.headers.set('Idempotency-Key', idempotencyKey === undefined ? await randomKey() : idempotencyKey());
    }
    const repeatable = IDEMPOTENT.has(request.method) || request.headers.has('idempotency-key');
    for (let attempt = 1; ; attempt += 1) {
      const last = attempt >= maxAttempts;
      // A body can be read once: each attempt but the last sends a copy.
      const sent = last ? request : request.clone();
      let response: Response;
      try {
        response = await send(sent, ...rest);
      } catch (error) {
        if (last || !repeatable || isAbort(error) || request.signal.aborted) throw error;
        const delayMs = backoff(attempt);
        onRetry?.({ request, attempt, delayMs, error });
        await sleep(delayMs, request.signal);
        continue;
      }
      if (last || (response.status !== 429 && response.status !== 503)) return response;
      const delayMs = parseRetryAfter(response.headers.get('retry-after')) ?? backoff(attempt);
      if (delayMs > maxDelayMs) return response;
      await response.body?.cancel();
      onRetry?.({ request, attempt, delayMs, response });
      await sleep(delayMs, request.signal);
    }
  };
}

export function createAcademyClient({
  baseUrl,
  token,
  headers,
  retry = {},
  idempotencyKey,
  // Looked up at each call, so that a fetch replaced later (a test's, an instrumented one) is used.
  fetch = (request, ...rest: unknown[]) =>
    (globalThis.fetch as (request: Request, ...rest: unknown[]) => Promise<Response>)(request, ...rest),
  ...options
}: AcademyClientOptions): AcademyClient {
  const client = createClient<paths>({
    ...options,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...(headers as Record<string, string> | undefined), Authorization: `Bearer ${token}` },
    fetch: retrying(fetch, retry, idempotencyKey),
  });

  async function* pages<P extends ListPath>(path: P, init?: ListInit<P>): AsyncGenerator<{ data: ListPage<P>; response: Response }> {
    // The first page as asked; then the query of each `rel="next"` link as the server wrote it (any
    // cursor it uses), on the client's own base URL and path, which a proxy may differ from the links'.
    let query: string | null = null;
    const seen = new Set<string>();
    for (;;) {
      const options = query === null ? init : { ...init, querySerializer: () => query as string };
      const { data, error, response } = await (client.GET as (path: string, init?: object) => Promise<Record<string, any>>)(path, options);
      if (!response.ok) throw new AcademyApiError(response, error);
      yield { data: data as ListPage<P>, response };
      const next = nextLink(response.headers.get('link'));
      if (next === null) return;
      query = new URL(next, response.url || 'http://localhost').search.replace(/^\?/, '');
      if (seen.has(query)) throw new Error(`The list at ${path} links back to a page already read (${next}).`);
      seen.add(query);
    }
  }

  async function* paginate<P extends ListPath>(path: P, init?: ListInit<P>): AsyncGenerator<ListItem<P>> {
    for await (const page of pages(path, init)) yield* (page.data as { data: ListItem<P>[] }).data;
  }

  return Object.assign(client, {
    pages: pages as AcademyClient['pages'],
    paginate: paginate as AcademyClient['paginate'],
  });
}
