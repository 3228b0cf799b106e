import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** A job's state as the metrics tell it: failed (given up), running (claimed) or waiting (due or scheduled, not claimed). */
export type JobState = 'waiting' | 'running' | 'failed';

/** What the metrics read of the queue (src/http/platform-metrics.ts), when Prometheus scrapes. */
export function createJobMetricsRepository(db: Kysely<DB>) {
  return {
    /** How many jobs there are of each name in each state. */
    countByNameAndState: async (): Promise<{ name: string; state: JobState; n: number }[]> => {
      const rows = await db
        .selectFrom('jobs')
        .select([
          'name',
          sql<JobState>`case when failed_at is not null then 'failed' when locked_by is not null then 'running' else 'waiting' end`.as(
            'state',
          ),
          sql<number | string>`count(*)`.as('n'),
        ])
        .groupBy(['name', sql`2`])
        .execute();
      return rows.map((row) => ({ name: row.name, state: row.state, n: Number(row.n) }));
    },

    /** The `run_at` of the oldest job of each name that is due at `now` and that no worker has claimed. */
    oldestWaiting: async (now: string): Promise<{ name: string; oldest: string }[]> =>
      db
        .selectFrom('jobs')
        .select(['name', sql<string>`min(run_at)`.as('oldest')])
        .where('failed_at', 'is', null)
        .where('locked_by', 'is', null)
        .where('run_at', '<=', now)
        .groupBy('name')
        .execute(),
  };
}

export type JobMetricsRepository = ReturnType<typeof createJobMetricsRepository>;
