import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

// Enrolments of a set of students by id alone (search counts every enrolment of the students it
// matched): on PostgreSQL an index of (user_id, id) answers from the index without reading the rows,
// where the index of user_id alone made the planner prefer a scan of every enrolment. It replaces
// that index, which it also serves. SQLite's index of user_id already holds each row's id.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await db.schema.createIndex('enrolments_user_id').on('enrolments').columns(['user_id', 'id']).execute();
  await db.schema.dropIndex('enrolments_user').execute();
}
