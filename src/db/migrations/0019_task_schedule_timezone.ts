import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

// The time zone a task's next_run_at was computed in. When the organization moves to another time
// zone, the scheduler computes next_run_at again in the new one (src/modules/tasks/scheduler.ts)
// rather than running once more at the old zone's time. The schedules already set were computed in
// the organization's current zone.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('scheduled_tasks').addColumn('schedule_timezone', 'text').execute();
  await db
    .updateTable('scheduled_tasks')
    .set((eb) => ({ schedule_timezone: eb.selectFrom('organization').select('timezone').limit(1) }))
    .where('next_run_at', 'is not', null)
    .execute();
}
