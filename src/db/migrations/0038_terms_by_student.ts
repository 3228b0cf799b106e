import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { TERMS_BY_STUDENT } from '../student-terms.ts';

// The students' terms by student (ADR 0026): the triggers that rewrite a student's terms on every
// update of the student first delete them by id, which read every term of every student without
// this index (170–330 ms on PostgreSQL, 22–34 ms on SQLite, at a million students).
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await sql.raw(TERMS_BY_STUDENT).execute(db);
}
