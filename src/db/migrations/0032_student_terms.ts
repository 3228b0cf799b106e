import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { addWords, createTermTriggers, termIndexes } from '../student-terms.ts';
import { columns } from './columns.ts';

// The words of the students' names and emails with the students' order keys (ADR 0026,
// src/db/student-terms.ts): a page of the 16,000 students who share a surname, in any order, is a
// range of an index instead of every match sorted (50–100 ms on SQLite at a million students).
//
// Here: the terms, the vocabularies of words and domains, the terms of the students there are, and
// the triggers that keep them in the writing transaction.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const c = columns(dialect);
  await db.schema
    .createTable('student_terms')
    .addColumn('term', 'text', (col) => col.notNull())
    .addColumn('id', 'integer', (col) => col.notNull())
    .addColumn('email_verified', c.bool, (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    // PostgreSQL's key is added with the indexes, after the rows (`termIndexes`).
    .$call((table) =>
      dialect === 'sqlite' ? table.addPrimaryKeyConstraint('student_terms_pk', ['term', 'id']).modifyEnd(sql`without rowid`) : table,
    )
    .execute();
  for (const table of ['student_words', 'student_domains'] as const) {
    const column = table === 'student_words' ? 'word' : 'domain';
    await db.schema
      .createTable(table)
      .addColumn(column, 'text', (col) => col.primaryKey())
      .$call((t) => (dialect === 'sqlite' ? t.modifyEnd(sql`without rowid`) : t))
      .execute();
  }
  for (const statement of addWords(dialect, 'users')) await statement.execute(db);
  for (const statement of termIndexes(dialect)) await sql.raw(statement).execute(db);

  await createTermTriggers(db, dialect, addWords(dialect, 'new'));
}
