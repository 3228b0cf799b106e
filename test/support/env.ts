import type { Dialect } from '../../src/db/database.ts';

/** Which database this test process runs against; scripts/test.ts runs the suite once per dialect. */
export const dialect: Dialect = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

/** A server database that test files create their own databases in. */
export const postgresAdminUrl = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * The secret key of the PostgreSQL suite (scripts/test.ts), to spread into a configuration built from
 * an environment of its own; the SQLite suite keeps a key file in each data directory instead.
 */
export const secretKeyEnv: Record<string, string> = process.env.ACADEMY_SECRET_KEY
  ? { ACADEMY_SECRET_KEY: process.env.ACADEMY_SECRET_KEY }
  : {};

export const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Under CI a missing service fails the run; elsewhere tests that need it are skipped with a reason. */
export const ci = process.env.CI === 'true';

/**
 * Whether the test Redis answers. Under CI its absence is an error; elsewhere the result is the reason
 * to skip (`false` when Redis is there).
 */
export async function redisSkipReason(what: string): Promise<string | false> {
  const { Redis } = await import('ioredis');
  const probe = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000, retryStrategy: () => null });
  probe.on('error', () => {});
  let reachable = false;
  try {
    await probe.connect();
    reachable = (await probe.ping()) === 'PONG';
  } catch {
    reachable = false;
  } finally {
    probe.disconnect();
  }
  if (reachable) return false;
  if (ci) throw new Error(`CI=true and Redis is not reachable at ${redisUrl}`);
  return `Redis is not reachable at ${redisUrl} (set TEST_REDIS_URL); ${what} not tested`;
}
