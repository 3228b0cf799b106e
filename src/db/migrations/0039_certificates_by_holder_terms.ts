import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { createHolderTerms } from '../holder-terms.ts';

// The certificates by their holder's terms (ADR 0026, src/db/holder-terms.ts): `GET /search` counts
// and pages the certificates of the students a text names from a range per term, where it probed
// each student (a surname's certificates group, 15–19 ms on PostgreSQL at a million students).
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await createHolderTerms(db, dialect, ['certificates']);
}
