import { hash, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GoneError, MalformedRequestError, NotFoundError, UnavailableError } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import type { ApiVersion } from '../platform/versions.ts';
import { lingerAfterResponse } from './lingering-close.ts';
import { isRead } from './methods.ts';
import { hookList } from './route-hooks.ts';
import { type VersionState, versionState } from './versions.ts';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echo a client's request id when it is safe to log and reflect; otherwise mint one. */
export function requestId(request: { headers: Record<string, string | string[] | undefined> }): string {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/**
 * Whether a response goes out before the request's body has arrived (an early 401, 413 or 429): the
 * connection is then closed, as Node would otherwise keep reading the body to discard it, and a client
 * that never sends it would hold the connection.
 */
function bodyUnread(request: FastifyRequest): boolean {
  const { raw } = request;
  const declared = raw.headers['transfer-encoding'] !== undefined || (raw.headers['content-length'] ?? '0') !== '0';
  return declared && raw.complete === false;
}

function hostSentTwice(raw: string[]): boolean {
  let seen = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length !== 4 || name.toLowerCase() !== 'host') continue;
    if (seen) return true;
    seen = true;
  }
  return false;
}

/** The strong ETag of a representation: a one-shot hash of the exact bytes sent (no Hash object per response). */
export function entityTag(payload: string | Buffer): string {
  return `"${hash('sha256', payload, 'base64url').slice(0, 32)}"`;
}

/**
 * Whether an `If-None-Match` field names `etag` (weakly compared, RFC 9110 §13.1.2) or is `*`: the
 * client's copy is current, and a GET answers 304.
 */
export function matchesIfNoneMatch(field: string | undefined, etag: string): boolean {
  return field?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*') ?? false;
}

const CANONICAL_ID = /^[1-9][0-9]{0,9}$/;

const NOT_MODIFIED = { type: 'null', description: 'Not modified: the `If-None-Match` ETag matches.' };

/**
 * Route-level conventions, applied as routes are declared:
 * - an integer path id must be written canonically (`7`, not `07`, `7.0`, `0x7` or `+7`, which the
 *   validator would otherwise coerce): anything else addresses nothing and is a 404 (as is any
 *   other path parameter that fails its schema, e.g. a malformed slug: see src/http/errors.ts);
 * - the OpenAPI document lists the error statuses the route can answer with.
 */
function registerRouteConventions(app: FastifyInstance): void {
  const error = { $ref: 'Error' };
  app.addHook('onRoute', (route) => {
    const schema = route.schema as
      | {
          params?: { properties?: Record<string, { type?: string }> };
          querystring?: unknown;
          body?: unknown;
          response?: object;
          hide?: boolean;
        }
      | undefined;
    if (!schema) return;
    const params = Object.entries(schema.params?.properties ?? {});
    const ids = params.filter(([, property]) => property.type === 'integer').map(([name]) => name);
    if (ids.length) {
      // A callback hook, not an async one: no promise and no tick on every read of one item.
      const check = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
        const params = request.params as Record<string, string>;
        for (const name of ids) if (!CANONICAL_ID.test(params[name] ?? '')) return done(new NotFoundError());
        done();
      };
      route.preValidation = [check, ...hookList(route.preValidation)] as never;
    }
    if (schema.hide || !(route.url === '/api' || route.url.startsWith('/api/'))) return;
    const read = [route.method].flat().every(isRead);
    route.schema = {
      ...route.schema,
      response: {
        // Any path parameter can address nothing (a missing id, an unknown or malformed slug).
        ...(params.length ? { 404: error } : {}),
        // A body is parsed whenever one is sent, so any write can meet one that is unparseable or of another type.
        ...(read ? {} : { 400: error, 415: error }),
        // Any query can hold a NUL character, and a POST an unusable Idempotency-Key.
        422: error,
        // Every 200 of a GET carries an ETag (see onSend below).
        ...(read ? { 304: NOT_MODIFIED } : {}),
        // Every PATCH honours If-Match (src/http/preconditions.ts).
        ...(route.method === 'PATCH' ? { 412: error } : {}),
        ...schema.response,
      },
    };
  });
}

declare module 'fastify' {
  interface FastifyReply {
    /** Whether the answer is on its way: its first onSend hook has run (see guardHandlers). */
    answering: boolean;
  }
}

/**
 * A handler that answers through `reply.send()` after a read, and resolves with nothing, leaves
 * Fastify to send a second answer while the first may still be in its onSend hooks: the second then
 * writes headers already written, an error thrown outside any request, and the process ends. Every
 * handler's promise that resolves with nothing once its answer is on its way resolves with the reply
 * instead (Fastify then waits for that answer), so no route written so can end the process.
 */
function guardHandlers(app: FastifyInstance): void {
  app.decorateReply('answering', false);
  app.addHook('onRoute', (route) => {
    const handler = route.handler;
    route.handler = function guarded(this: FastifyInstance, request, reply) {
      const result = handler.call(this, request, reply) as unknown;
      if (result === null || typeof result !== 'object' || typeof (result as PromiseLike<unknown>).then !== 'function') return result;
      return (result as Promise<unknown>).then((value) => (value === undefined && reply.answering ? reply : value));
    } as typeof handler;
  });
}

export function registerConventions(app: FastifyInstance, platform: Platform): void {
  guardHandlers(app);
  registerRouteConventions(app);
  app.decorate('publicUrl', platform.config.publicUrl);

  // Once shutdown begins, responses close their connection: otherwise a keep-alive client would hold
  // the process open after its last in-flight request until the client's idle timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  // The version a URL addresses: `/api/v1`, then the end, `/` or `?` (no match object per request).
  const prefixes = platform.versions.map((version) => ({ prefix: `/api/${version.version}`, version }));
  const versionOf = (url: string): ApiVersion | undefined => {
    for (const { prefix, version } of prefixes) {
      if (!url.startsWith(prefix)) continue;
      const next = url.charCodeAt(prefix.length);
      // NaN past the end; 47 is `/`, 63 is `?`.
      if (Number.isNaN(next) || next === 47 || next === 63) return version;
    }
    return undefined;
  };

  // A version's lifecycle headers change at most once a second (their dates are whole seconds).
  const states = new Map<ApiVersion, { second: number; state: VersionState }>();
  const lifecycle = (version: ApiVersion): VersionState => {
    const now = platform.clock.epochMs();
    const second = Math.floor(now / 1000);
    const known = states.get(version);
    if (known?.second === second) return known.state;
    const state = versionState(version, new Date(now), platform.config.publicUrl);
    states.set(version, { second, state });
    return state;
  };

  // One hook per phase, and synchronous ones (no promise per hook): these run on every request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // No answer is to be read as another type than it says (an HTML page, a JSON error, a file).
    reply.header('x-content-type-options', 'nosniff');
    if (closing) {
      reply.header('connection', 'close');
      return done(new UnavailableError('The server is shutting down; retry the request.'));
    }
    // HTTP/1.1 requires Host (RFC 9112); Node's own refusal of a request without one has no body.
    if (request.headers.host === undefined && request.raw.httpVersionMajor === 1 && request.raw.httpVersionMinor >= 1) {
      return done(new MalformedRequestError('The Host header is required.'));
    }
    // Two Host headers (Node keeps the first) name two servers: refused (RFC 9112 §3.2).
    if (hostSentTwice(request.raw.rawHeaders)) return done(new MalformedRequestError('The Host header must be sent once.'));

    // API version lifecycle from the registry: Deprecation/Sunset/Link headers, and 410 past sunset.
    const version = versionOf(request.url);
    if (!version) return done();
    const state = lifecycle(version);
    reply.headers(state.headers);
    if (state.sunset) {
      return done(
        new GoneError('version_sunset', `API ${version.version} has reached its sunset date and is no longer available.`, state.headers),
      );
    }
    done();
  });

  // The application's first onSend hook: it runs within reply.send(), before any hook can wait.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.answering = true;
    if (closing || bodyUnread(request)) reply.header('connection', 'close');
    if (bodyUnread(request)) lingerAfterResponse(request.raw, platform.config);
    // Strong ETags over the exact bytes sent; a matching If-None-Match gets 304 without a body.
    if (!isRead(request.method) || reply.statusCode !== 200) return done(null, payload);
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    // A representation sent with its ETag (a cached one, a stored file's) keeps it; any other is hashed.
    const given = reply.getHeader('etag');
    const etag = typeof given === 'string' ? given : entityTag(payload);
    if (given === undefined) reply.header('etag', etag);
    if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
      reply.code(304);
      reply.removeHeader('content-type');
      reply.removeHeader('content-length');
      reply.removeHeader('content-encoding');
      return done(null, '');
    }
    done(null, payload);
  });
}
