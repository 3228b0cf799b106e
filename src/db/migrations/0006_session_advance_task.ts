import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

// The scheduled task that moves training sessions along their workflow by their dates. Values are
// written out here, not imported, so this migration keeps meaning what it meant when it was released.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto('scheduled_tasks')
    .values({
      task_type: 'sessions.advance',
      name: 'Advance training sessions',
      description:
        'Opens registration of scheduled sessions whose registration opening time has passed, starts sessions on their first day ' +
        'and completes them after their last day (dates in the organization’s time zone).',
      cron: '* * * * *',
      enabled: dialect === 'sqlite' ? 1 : true,
      next_run_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}
