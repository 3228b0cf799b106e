import type { Kysely } from 'kysely';

// The sessions that have a waitlist, with its length: the total of `GET /enrolments?status=waitlisted`
// (alone or with `course_id`) is the sum of the sessions' counters, read from this small partial
// index (a few hundred entries) instead of every session's row.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('training_sessions_waitlisted')
    .on('training_sessions')
    .columns(['course_id', 'waitlisted_count'])
    .where('waitlisted_count', '>', 0)
    .execute();
}
