import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

// A student's certificates in id order, from the index alone (GET /certificates?student_id=, and
// GET /search counting the certificates of the students a text names: a surname's 2,000 students at
// a million read a heap row for each certificate found). SQLite's index of `user_id` holds the rowid
// already; PostgreSQL's now holds the id.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`create index certificates_user_id on certificates (user_id, id)`.execute(db);
  await sql`drop index certificates_user`.execute(db);
}
