import type { Kysely } from 'kysely';

// GET /enrolments?status=… reads, by id, the first enrolments of one status and sums the sessions'
// counters for the total:
// - the sessions that have a waitlist, with its length, in a small partial index (a few hundred
//   entries), so that the waitlisted total does not read every session's row;
// - enrolments by status then id, so that PostgreSQL reads a page of one status in id order instead
//   of walking the primary key and skipping the other statuses (SQLite's index on status already
//   ends with the row id).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('training_sessions_waitlisted')
    .on('training_sessions')
    .columns(['course_id', 'waitlisted_count'])
    .where('waitlisted_count', '>', 0)
    .execute();
  await db.schema.createIndex('enrolments_status_id').on('enrolments').columns(['status', 'id']).execute();
  await db.schema.dropIndex('enrolments_status').execute();
}
