import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { addTerms, removeTerms, termIndexes } from '../student-terms.ts';
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
  for (const statement of addTerms(dialect, 'users')) await statement.execute(db);
  for (const statement of termIndexes(dialect)) await sql.raw(statement).execute(db);

  const student = (row: 'old' | 'new') => sql`(${sql.raw(row)}.is_student and not ${sql.raw(row)}.is_admin)`;
  const keys = sql.raw(['name', 'email', 'email_verified', 'is_student', 'is_admin', 'created_at', 'updated_at'].join(', '));
  const added = addTerms(dialect, 'new');
  if (dialect === 'sqlite') {
    const statements = (list: ReturnType<typeof addTerms>) =>
      sql.join(
        list.map((s) => sql`${s};`),
        sql` `,
      );
    await sql`create trigger users_student_terms_insert after insert on users when ${student('new')}
      begin ${statements(added)} end`.execute(db);
    await sql`create trigger users_student_terms_update after update of ${keys} on users when ${student('old')} or ${student('new')}
      begin ${removeTerms()}; ${statements(added)} end`.execute(db);
    await sql`create trigger users_student_terms_delete after delete on users when ${student('old')}
      begin ${removeTerms()}; end`.execute(db);
  } else {
    await sql`create function users_student_terms() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then ${removeTerms()}; end if;
        if tg_op <> 'DELETE' then ${sql.join(
          added.map((s) => sql`${s};`),
          sql` `,
        )} end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger users_student_terms_insert after insert on users
      for each row when ${student('new')} execute function users_student_terms()`.execute(db);
    await sql`create trigger users_student_terms_update after update of ${keys} on users
      for each row when (${student('old')} or ${student('new')}) execute function users_student_terms()`.execute(db);
    await sql`create trigger users_student_terms_delete after delete on users
      for each row when ${student('old')} execute function users_student_terms()`.execute(db);
  }
}
