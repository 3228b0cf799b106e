import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

// GET /search reaches enrolments and certificates through their students' names (ADR 0026): the
// students' terms hold every student but those who joined the staff since, who keep their
// enrolments. This index lists those few users by id, so that a search reads them, and tests their
// text, without reading every staff member whose name holds the text.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await sql`create index users_students_on_staff on users (id) where is_student and is_admin`.execute(db);
}
