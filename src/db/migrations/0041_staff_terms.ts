import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { createStaffTerms } from '../student-terms.ts';

// The staff's words and pairs of words (src/db/student-terms.ts, `STAFF`), on PostgreSQL: `GET
// /search` counts and pages the staff a text names from a range of `staff_terms` per term, where it
// read and rechecked the row of every trigram match (1,690 candidates from 717 pages of `users` for
// a surname at a hundred thousand staff) and walked the staff in id order testing each one's text
// for its page. Their words join the students' vocabularies, which only say what terms a text lies in.
// SQLite's staff group reads its FTS5 index (`staff_search`) in rowid order: nothing to add there.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await createStaffTerms(db, dialect);
}
