import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { createHolderTerms } from '../holder-terms.ts';

// The enrolments by their holder's terms (ADR 0026, src/db/holder-terms.ts), as the certificates
// are since 0039: `GET /search` counts and pages the enrolments of the students a text names from a
// range of `enrolment_terms` per term, where it probed the enrolments of each student for the count
// and walked the enrolments in id order testing each one's student for the page (a surname's
// enrolments group, half of its search on PostgreSQL at a million students). At that size the
// table holds 16 million rows, made in 12 s on SQLite and 21 s on PostgreSQL, while enrolments
// and student_terms wait for the migration to commit.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await createHolderTerms(db, dialect, ['enrolments']);
}

/** Read from its key alone once vacuumed: until then PostgreSQL read a term's whole range and its table pages (14.7 ms for a surname's count, 1,001 rows). */
export const vacuumAfter = ['enrolment_terms'];
