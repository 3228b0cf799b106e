import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

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
  /** The decision at once when counting in memory (no Redis), else its promise. */
  consume(policy: PolicyName, key: string): Decision | Promise<Decision>;
  /** Stops the instance heartbeat and leaves the instance count (Redis only). */
  close(): Promise<void>;
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
 * Fixed windows counted in this process: the same arithmetic as the shared counters in Redis (a
 * window starts with a key's first request; past `points` the request is refused and still counted),
 * answered synchronously, so a request costs a map lookup rather than promises and a timer per key.
 * Windows that have ended are swept once per window length.
 */
export class LocalWindows {
  points: number;
  readonly #windowMs: number;
  readonly #windows = new Map<string, { count: number; endsAt: number }>();
  #sweepAt = 0;

  constructor(points: number, windowSeconds: number) {
    this.points = points;
    this.#windowMs = windowSeconds * 1000;
  }

  consume(key: string, now = Date.now()): { allowed: boolean; remaining: number; msBeforeNext: number } {
    if (now >= this.#sweepAt) this.#sweep(now);
    let window = this.#windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + this.#windowMs };
      this.#windows.set(key, window);
    }
    window.count++;
    return { allowed: window.count <= this.points, remaining: Math.max(0, this.points - window.count), msBeforeNext: window.endsAt - now };
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) if (window.endsAt <= now) this.#windows.delete(key);
    this.#sweepAt = now + this.#windowMs;
  }
}

export interface RateLimiterOptions {
  redis?: Redis | null;
  prefix?: string;
  limits?: Partial<Record<PolicyName, number>>;
  logger?: Logger | undefined;
  /** How often a serving instance renews its entry in the instance count (its entry lasts 3 times as long). */
  heartbeatMs?: number;
}

/**
 * Fixed-window counters per policy and key, in memory or, with Redis, shared by every instance.
 *
 * Should Redis fail, requests are still served (fail-open: the API must not go down because the store
 * of its counters did; the health check reports the outage), but each instance then counts alone, on
 * its own in-memory counters, and allows only its share of each limit: the limit divided by the number
 * of instances it last saw. Instances that serve requests register in a sorted set in Redis
 * (`<prefix>:instances`) with a heartbeat, and read its size at each beat, so the share follows scaling
 * while Redis is up. An instance that has never reached Redis knows only itself and allows the whole
 * limit.
 */
export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  const { redis, logger } = options;
  const prefix = options.prefix ?? 'academy:rl';
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  // Operators may tune a policy's limit (ACADEMY_RATE_LIMIT_PER_MINUTE); windows and names stay fixed.
  const policies = Object.fromEntries(
    Object.entries(POLICIES).map(([name, policy]) => [name, { ...policy, limit: options.limits?.[name as PolicyName] ?? policy.limit }]),
  ) as Record<PolicyName, Policy>;
  const local = new Map<PolicyName, LocalWindows>();
  const shared = new Map<PolicyName, RateLimiterRedis>();
  for (const [name, policy] of Object.entries(policies) as [PolicyName, Policy][]) {
    local.set(name, new LocalWindows(policy.limit, policy.windowSeconds));
    if (redis) {
      const base = { points: policy.limit, duration: policy.windowSeconds, keyPrefix: `${prefix}:${name}` };
      shared.set(name, new RateLimiterRedis({ ...base, storeClient: redis, rejectIfRedisNotReady: true }));
    }
  }

  const instanceKey = `${prefix}:instances`;
  const instanceId = randomUUID();
  let instances = 1;
  let heartbeat: NodeJS.Timeout | null = null;
  let degraded = false;

  function setInstances(count: number): void {
    instances = Math.max(1, count);
    for (const [name, limiter] of local) limiter.points = Math.max(1, Math.floor(policies[name].limit / instances));
  }

  async function beat(): Promise<void> {
    if (!redis) return;
    const now = Date.now();
    try {
      const results = await redis
        .multi()
        .zadd(instanceKey, now + 3 * heartbeatMs, instanceId)
        .zremrangebyscore(instanceKey, '-inf', now)
        .zcard(instanceKey)
        .pexpire(instanceKey, 3 * heartbeatMs)
        .exec();
      const count = results?.[2]?.[1];
      if (typeof count === 'number') setInstances(count);
      recovered();
    } catch {
      // Redis is down: the last known count stays in force.
    }
  }

  function startHeartbeat(): void {
    // Only processes that answer requests count (not workers or one-shot commands): started by the first request.
    if (heartbeat || !redis) return;
    heartbeat = setInterval(() => void beat(), heartbeatMs);
    heartbeat.unref();
    void beat();
  }

  async function consumeShared(limiter: RateLimiterRedis, policy: Policy, key: string): Promise<Decision> {
    try {
      return decision(policy, await limiter.consume(key), true);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return decision(policy, rejection, false);
      throw rejection;
    }
  }

  function consumeLocal(name: PolicyName, key: string): Decision {
    const counted = (local.get(name) as LocalWindows).consume(key);
    return {
      allowed: counted.allowed,
      limit: policies[name].limit,
      remaining: counted.remaining,
      resetSeconds: Math.max(1, Math.ceil(counted.msBeforeNext / 1000)),
    };
  }

  /** While Redis fails, it is asked again at most this often; every other request counts locally at once. */
  const RETRY_MS = 1000;
  let retryAt = 0;

  function recovered(): void {
    if (!degraded) return;
    degraded = false;
    logger?.info('Redis is reachable again: rate limits are shared by every instance again');
  }

  async function consumeOrFallBack(name: PolicyName, remote: RateLimiterRedis, key: string): Promise<Decision> {
    startHeartbeat();
    // A Redis that failed (down, or stalled past the command timeout) costs one request a second its
    // wait, not every request: the others go on with the local share until a try succeeds.
    if (degraded && Date.now() < retryAt) return consumeLocal(name, key);
    try {
      const result = await consumeShared(remote, policies[name], key);
      recovered();
      return result;
    } catch (error) {
      retryAt = Date.now() + RETRY_MS;
      if (!degraded) {
        degraded = true;
        logger?.warn(
          { err: error, instances },
          `Redis is unreachable: rate limits are counted by this process alone, at 1/${instances} of each limit (${instances} instance(s) last seen)`,
        );
      }
      return consumeLocal(name, key);
    }
  }

  return {
    consume(name, key) {
      const remote = shared.get(name);
      return remote ? consumeOrFallBack(name, remote, key) : consumeLocal(name, key);
    },

    async close() {
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      if (redis?.status === 'ready') await redis.zrem(instanceKey, instanceId).catch(() => {});
    },
  };
}
