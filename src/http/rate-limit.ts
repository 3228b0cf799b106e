import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** A named quota: `limit` requests per `windowSeconds`, counted per key. */
export interface Policy {
  name: string;
  limit: number;
  windowSeconds: number;
}

export const POLICIES = {
  /** Every authenticated endpoint, counted per token (spec §8). */
  default: { name: 'default', limit: 120, windowSeconds: 60 },
  /** Public certificate verification, counted per client address (spec §8). */
  public: { name: 'public', limit: 30, windowSeconds: 60 },
  /** Requests that present no valid token, counted per client address. */
  anonymous: { name: 'anonymous', limit: 60, windowSeconds: 60 },
} as const satisfies Record<string, Policy>;

export type PolicyName = keyof typeof POLICIES;

export interface Decision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export interface RateLimiter {
  consume(policy: PolicyName, key: string): Promise<Decision>;
}

function decision(policy: Policy, res: RateLimiterRes, allowed: boolean): Decision {
  return {
    allowed,
    limit: policy.limit,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}

/**
 * Fixed-window counters per policy and key, in memory or, with Redis, shared by every instance.
 * Should Redis fail, each instance falls back to its own in-memory counters rather than refusing
 * traffic; the health check reports the Redis outage.
 */
export function createRateLimiter(
  options: { redis?: Redis | null; prefix?: string; limits?: Partial<Record<PolicyName, number>> } = {},
): RateLimiter {
  const limiters = new Map<PolicyName, RateLimiterMemory | RateLimiterRedis>();
  // Operators may tune a policy's limit (ACADEMY_RATE_LIMIT_PER_MINUTE); windows and names stay fixed.
  const policies = Object.fromEntries(
    Object.entries(POLICIES).map(([name, policy]) => [name, { ...policy, limit: options.limits?.[name as PolicyName] ?? policy.limit }]),
  ) as Record<PolicyName, Policy>;
  for (const [name, policy] of Object.entries(policies) as [PolicyName, Policy][]) {
    const base = { points: policy.limit, duration: policy.windowSeconds, keyPrefix: `${options.prefix ?? 'academy:rl'}:${name}` };
    const memory = new RateLimiterMemory(base);
    limiters.set(
      name,
      options.redis
        ? new RateLimiterRedis({ ...base, storeClient: options.redis, rejectIfRedisNotReady: true, insuranceLimiter: memory })
        : memory,
    );
  }
  return {
    async consume(name, key) {
      const policy = policies[name];
      const limiter = limiters.get(name) as RateLimiterMemory | RateLimiterRedis;
      try {
        return decision(policy, await limiter.consume(key), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decision(policy, rejection, false);
        throw rejection;
      }
    },
  };
}

/** The IETF draft-ietf-httpapi-ratelimit-headers-11 fields plus the common X-RateLimit-* ones. */
export function rateLimitHeaders(policyName: PolicyName, d: Decision, now: Date): Record<string, string> {
  const policy = POLICIES[policyName];
  const headers: Record<string, string> = {
    'ratelimit-policy': `"${policy.name}";q=${d.limit};w=${policy.windowSeconds}`,
    ratelimit: `"${policy.name}";r=${d.remaining};t=${d.resetSeconds}`,
    'x-ratelimit-limit': String(d.limit),
    'x-ratelimit-remaining': String(d.remaining),
  };
  if (!d.allowed) {
    headers['retry-after'] = String(d.resetSeconds);
    headers['x-ratelimit-reset'] = String(Math.ceil(now.getTime() / 1000) + d.resetSeconds);
  }
  return headers;
}
