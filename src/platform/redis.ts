import { Redis } from 'ioredis';

/**
 * The Redis client every process uses. Every command is bounded: a Redis that stalls (a full network
 * buffer, a paused server) answers no command, yet the connection stays up, so neither a connection
 * error nor the offline queue would ever end the wait. A command past `timeoutMs` fails, and its
 * caller falls back as for a Redis that is down (src/platform/rate-limit.ts). Commands fail at once
 * while the connection is down (no offline queue) and are retried once.
 */
export function connectRedis(url: string, timeoutMs: number): Redis {
  return new Redis(url, {
    lazyConnect: false,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    commandTimeout: timeoutMs,
  });
}
