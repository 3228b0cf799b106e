import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

// Enrolments and certificates in id order with their student, from the index alone: GET /search
// finds a page of a common name's enrolments by reading them in id order and testing each one's
// student (ADR 0026), about 800 rows for a surname at a million students, each a heap row read
// through the primary key before. SQLite walks its rowid tables, which hold the row.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`create index enrolments_id_user on enrolments (id) include (user_id)`.execute(db);
  await sql`create index certificates_id_user on certificates (id) include (user_id)`.execute(db);
}
