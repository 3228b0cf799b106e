import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { addForEveryStudent, addPairs, addTerms, createTermTriggers } from '../student-terms.ts';

// The students' pairs of neighbouring words (src/db/student-terms.ts, ADR 0026): a text with one
// space (`amelia smith`, half of what registrars type for a person) lies across two words, so its
// students are those with a pair that contains it, a range of `student_terms` in any order of the
// list, instead of the trigram index's lookup, a check of every row it finds and a sort.
//
// Here: the vocabulary of pairs (by the pair's second word, which a text's second part begins;
// PostgreSQL compares it in code point order, as SQLite does, so that a prefix is a range), the
// pairs of the students there are, and the triggers made again to keep the pairs too.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('student_pairs')
    .addColumn('second', 'text', (col) => (dialect === 'postgres' ? col.notNull().modifyEnd(sql`collate "C"`) : col.notNull()))
    .addColumn('first', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('student_pairs_pk', ['second', 'first'])
    .$call((t) => (dialect === 'sqlite' ? t.modifyEnd(sql`without rowid`) : t))
    .execute();
  await addForEveryStudent(db, dialect, addPairs);
  // A term's rows were a word's thousands; most are now a pair's hundreds. PostgreSQL planned the
  // pairs' pages with the old estimate (parallel workers for 170 rows: 450 ms instead of 3 ms).
  if (dialect === 'postgres') await sql`analyze student_terms`.execute(db);
  await createTermTriggers(db, dialect, addTerms(dialect, 'new'));
}
