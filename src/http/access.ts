import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, onSendHookHandler } from 'fastify';
import type { Actor } from '../platform/context.ts';
import { InsufficientScopeError, RateLimitedError, UnauthenticatedError } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import type { Decision, PolicyName } from '../platform/rate-limit.ts';
import { grants, type Scope } from '../platform/tokens/scopes.ts';
import type { AuthenticatedToken } from '../platform/tokens/service.ts';
import { isRead } from './methods.ts';
import { rateLimitHeaders, rateLimitRefusals, setRateLimitHeaders } from './rate-limit.ts';
import { hookList } from './route-hooks.ts';

/**
 * How a route is reached. Every route declares one in `config.access`:
 * - `{ scope }`: a bearer token holding the scope (or `*`); rate-limited per token;
 * - `{ public: policy }`: no credentials; rate-limited per client address; with `counter`, counted apart
 *   from the policy's other routes (the same limit, a count of its own);
 * - `{ session: name }`: the console's pages, counted once their handler knows who asks
 *   (`request.countQuota`): a staff session against the per-token quota, each session its own, so
 *   that an office behind one address is not one user; without a session, the address under the
 *   anonymous policy with the counter `name`;
 * - `'open'`: operational endpoints (docs, probes, metrics) with neither.
 */
export type Access = { scope: Scope } | { public: PolicyName; counter?: string } | { session: string } | 'open';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    actor: Actor | null;
    /**
     * Counts the request against `policy` under `key` and sets the rate-limit headers, or refuses it
     * (429): for routes of `{ session }` access, whose handler knows who asks. A promise when counted
     * in Redis.
     */
    countQuota: ((policy: PolicyName, key: string) => Promise<void> | undefined) | null;
  }
}

/**
 * What each request with a token needs of it and would otherwise make anew: its actor and its key in
 * the rate-limit counters. Kept with the token object, which the token cache hands out unchanged
 * until the token changes (src/platform/tokens/service.ts), so they go when it goes.
 */
interface TokenUse {
  actor: Actor;
  limitKey: string;
}
const tokenUses = new WeakMap<AuthenticatedToken, TokenUse>();
function useOf(token: AuthenticatedToken): TokenUse {
  let use = tokenUses.get(token);
  if (!use) {
    use = {
      actor: Object.freeze({
        kind: 'token',
        tokenId: token.id,
        userId: token.userId,
        scopes: token.scopes,
        permissions: token.permissions,
        // The audit trail's name for it: the token's, and for whom it acts.
        name: token.userName === null ? token.name : `${token.name} (for ${token.userName})`,
      }),
      limitKey: `token:${token.id}`,
    };
    tokenUses.set(token, use);
  }
  return use;
}

/** Sets the request's actor to the token, or refuses a token without the route's scope (403). */
function admitToken(request: FastifyRequest, token: AuthenticatedToken, scope: Scope): void {
  request.actor = useOf(token).actor;
  if (!grants(token.scopes, scope)) throw new InsufficientScopeError(scope);
}

/** The bearer token sent, `''` for a malformed Bearer header, `null` when none was sent (or another scheme). */
function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  // One pass: the token, or the Bearer scheme with anything else after it (malformed), or another scheme.
  const match = /^Bearer(?:\s+(\S+)\s*$|\s|$)/i.exec(header);
  return match ? (match[1] ?? '') : null;
}

export function registerAccessControl(app: FastifyInstance, platform: Platform): void {
  app.decorateRequest('actor', null);
  app.decorateRequest('countQuota', null);

  /**
   * Addresses this process refused under the policy of requests without a valid token, until their
   * window ends: a token this process does not know is not looked up for them (see lookUp). Kept here,
   * not asked of Redis, so a token missing from the cache (as every token is after a change) costs
   * no extra round trip; an address refused by another instance costs this one a look-up, then none.
   */
  const overLimit = new Map<string, { until: number; decision: Decision }>();
  /**
   * Tokens this process has found valid: one of them is looked up even from an address over that
   * limit (many users behind one address), for the token cache empties at every change. Bounded.
   */
  const seenValid = new Set<string>();

  function noteOverLimit(key: string, decision: Decision): void {
    const now = platform.clock.epochMs();
    // Bounded: a flood of addresses empties the ended windows first, then all (a few look-ups more).
    if (overLimit.size >= 10_000) {
      for (const [address, entry] of overLimit) if (entry.until <= now) overLimit.delete(address);
      if (overLimit.size >= 10_000) overLimit.clear();
    }
    overLimit.set(key, { until: now + decision.resetSeconds * 1000, decision });
  }

  /** Counts the request against its quota and sets the rate-limit headers, or answers 429. */
  function admit(reply: FastifyReply, policy: PolicyName, key: string, decision: Decision): void {
    if (!decision.allowed && policy === 'anonymous') noteOverLimit(key, decision);
    refuseOver(policy, decision);
    setRateLimitHeaders(reply, policy, decision, platform.clock.epochMs());
  }

  /** Undefined when the request may go on at once; a promise when the quota is counted in Redis. */
  function limit(reply: FastifyReply, policy: PolicyName, key: string): Promise<void> | undefined {
    const decision = platform.rateLimiter.consume(policy, key);
    if (decision instanceof Promise) return decision.then((shared) => admit(reply, policy, key, shared));
    admit(reply, policy, key, decision);
    return undefined;
  }

  function authorize(
    request: FastifyRequest,
    reply: FastifyReply,
    access: { scope: Scope },
    token: AuthenticatedToken | null,
  ): Promise<void> | undefined {
    if (!token) {
      // No valid token: count against the client address, so guessing tokens is throttled too.
      const refuse = (): never => {
        throw new UnauthenticatedError(bearer(request) !== null);
      };
      const counted = limit(reply, 'anonymous', `ip:${request.ip}`);
      return counted ? counted.then(refuse) : refuse();
    }
    const counted = limit(reply, 'default', useOf(token).limitKey);
    if (counted) return counted.then(() => admitToken(request, token, access.scope));
    admitToken(request, token, access.scope);
    return undefined;
  }

  /**
   * A token this process does not know yet is looked up only for an address this process has not
   * refused under the limit of requests without a valid token: guessing tokens (or a flood of them
   * while the database is slow) costs an address over that limit no look-up, only an immediate 429.
   */
  function lookUp(request: FastifyRequest, reply: FastifyReply, access: { scope: Scope }, presented: string): Promise<void> | undefined {
    const refused = seenValid.has(presented) ? undefined : overLimit.get(`ip:${request.ip}`);
    if (refused) {
      const left = refused.until - platform.clock.epochMs();
      if (left > 0) refuseOver('anonymous', { ...refused.decision, resetSeconds: Math.max(1, Math.ceil(left / 1000)) });
      overLimit.delete(`ip:${request.ip}`);
    }
    const found = (token: AuthenticatedToken | null) => {
      if (token) {
        if (seenValid.size >= 10_000) seenValid.clear();
        seenValid.add(presented);
      }
      return authorize(request, reply, access, token);
    };
    const resolved = platform.tokens.authenticate(presented);
    return resolved instanceof Promise ? resolved.then(found) : found(resolved);
  }

  function refuseOver(policy: PolicyName, decision: Decision): void {
    if (decision.allowed) return;
    rateLimitRefusals.set(policy, (rateLimitRefusals.get(policy) ?? 0) + 1);
    throw new RateLimitedError(rateLimitHeaders(policy, decision, platform.clock.now()));
  }

  /** The access check of a route: its token, scope and quota, or its client address's quota. */
  function checkAccess(access: Exclude<Access, 'open'>): onRequestHookHandler {
    // Not async: with the token cached and the quota counted in memory, a request goes on without a tick.
    const addressKey = 'public' in access && access.counter ? `${access.counter}:ip:` : 'ip:';
    return (request, reply, done) => {
      let pending: Promise<void> | undefined;
      try {
        if ('session' in access) {
          request.countQuota = (policy, key) => limit(reply, policy, key);
        } else if ('public' in access) {
          pending = limit(reply, access.public, `${addressKey}${request.ip}`);
        } else {
          const presented = bearer(request);
          const known = presented ? platform.tokens.known(presented) : null;
          pending = known !== undefined ? authorize(request, reply, access, known) : lookUp(request, reply, access, presented as string);
        }
      } catch (error) {
        return done(error as Error);
      }
      if (pending) pending.then(() => done(), done);
      else done();
    };
  }

  /**
   * Cache headers of an answer that depends on who asks. Synchronous, as every onSend hook before a
   * kept answer's bytes are written: a 304 costs its request like any other (CONTRACT, Rate limits).
   */
  function cacheHeaders(access: Exclude<Access, 'open'>): onSendHookHandler {
    const read = 'scope' in access ? 'private, no-cache' : 'no-cache';
    return (request, reply, payload, done) => {
      if (isRead(request.method)) {
        // Answers depend on the token; a shared cache must not keep them, a private one must revalidate.
        if (!reply.hasHeader('cache-control')) reply.header('cache-control', read);
        if ('scope' in access) {
          // Added to what the answer already varies by (a kept compressed representation: Accept-Encoding).
          const vary = reply.getHeader('vary');
          reply.header('vary', vary ? `${String(vary)}, Authorization` : 'Authorization');
        }
      }
      done(null, payload);
    };
  }

  // Fail at start, not in production, when a route forgets to say who may call it.
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access) {
      if (route.url.startsWith('/api/')) throw new Error(`Route ${route.method} ${route.url} declares no access (config.access)`);
      // Plugin routes outside the API (the /docs assets) are open.
      route.config = { ...route.config, access: 'open' };
      return;
    }
    if (typeof access === 'object' && 'scope' in access) {
      const error = { $ref: 'Error' };
      route.schema = {
        ...route.schema,
        security: [{ bearerAuth: [access.scope] }],
        response: { 401: error, 403: error, 429: error, ...(route.schema?.response as object) },
      };
      (route.schema as { description?: string }).description = [route.schema.description, `Scope: \`${access.scope}\`.`]
        .filter(Boolean)
        .join('\n\n');
    }
    if (access === 'open') return;
    // The route's own hooks, with its access in hand: no lookup of the route's options per request.
    // They run after the application's hooks of each phase and before the compression plugin's (an
    // onRoute hook registered after this one), as global hooks did.
    route.onRequest = [...hookList(route.onRequest), checkAccess(access)] as never;
    route.onSend = [...hookList(route.onSend), cacheHeaders(access)] as never;
  });
}
