import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/schema.ts';
import type { JobName, JobPayloads } from '../../src/platform/jobs/names.ts';

/**
 * Leaves the job of `name` whose payload `matches` as a worker killed during its last attempt leaves
 * it: locked long ago, its attempts used up. A worker's sweep then gives it up for good.
 */
export async function abandonOnLastAttempt<N extends JobName>(
  db: Kysely<DB>,
  name: N,
  matches: (payload: JobPayloads[N]) => boolean,
): Promise<void> {
  const jobs = await db.selectFrom('jobs').select(['id', 'payload', 'max_attempts']).where('name', '=', name).execute();
  const job = jobs.find((j) => matches(JSON.parse(j.payload) as JobPayloads[N]));
  if (!job) throw new Error(`No ${name} job matches`);
  await db
    .updateTable('jobs')
    .set({ locked_by: 'gone', locked_at: '2020-01-01T00:00:00.000Z', attempts: job.max_attempts })
    .where('id', '=', job.id)
    .execute();
}
