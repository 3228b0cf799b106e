import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { bumpMark, MARK_ORDERS, marksTable, remakeMarks } from '../student-marks.ts';
import { columns } from './columns.ts';

// Marks in the students' orders (ADR 0024, src/db/student-marks.ts): a page of GET /students in
// name, email, created_at or updated_at order read up to half that order's index, 300 ms in the
// middle of a million students on PostgreSQL. Each order now has a table of marks, one every 4,096
// students, with the students from each mark to the next counted by `email_verified`; triggers keep
// the counts in the writing transaction. A page starts at the bucket that holds it.
//
// Here: the tables, the marks made from the students there are, the triggers, and the task that cuts
// buckets that grew too large (`students.split_marks`, every ten minutes).
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const c = columns(dialect);
  for (const order of MARK_ORDERS) {
    const time = order === 'created_at' || order === 'updated_at';
    await db.schema
      .createTable(marksTable(order))
      .addColumn('mark', time ? c.timestamp : 'text', (col) => col.notNull())
      .addColumn('id', 'integer', (col) => col.notNull())
      .addColumn('verified', 'integer', (col) => col.notNull())
      .addColumn('unverified', 'integer', (col) => col.notNull())
      .addPrimaryKeyConstraint(`${marksTable(order)}_pk`, ['mark', 'id'])
      .$call((table) => (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table))
      .execute();
    await remakeMarks(db, dialect, order);
  }

  const counted = (row: 'old' | 'new') => sql`(${sql.raw(row)}.is_student and not ${sql.raw(row)}.is_admin)`;
  const differs = sql.raw(dialect === 'sqlite' ? 'is not' : 'is distinct from');
  const moved = (order: string) =>
    sql`(${counted('old')} ${differs} ${counted('new')} or old.email_verified ${differs} new.email_verified or old.${sql.raw(order)} ${differs} new.${sql.raw(order)})`;
  const keys = sql.raw(['is_student', 'is_admin', 'email_verified', ...MARK_ORDERS].join(', '));
  if (dialect === 'sqlite') {
    await sql`create trigger users_student_marks_insert after insert on users when ${counted('new')}
      begin ${sql.join(
        MARK_ORDERS.map((order) => sql`${bumpMark(order, 'new', 1)};`),
        sql` `,
      )} end`.execute(db);
    await sql`create trigger users_student_marks_update after update of ${keys} on users when ${counted('old')} or ${counted('new')}
      begin ${sql.join(
        MARK_ORDERS.flatMap((order) => [
          sql`${bumpMark(order, 'old', -1, sql`${counted('old')} and ${moved(order)}`)};`,
          sql`${bumpMark(order, 'new', 1, sql`${counted('new')} and ${moved(order)}`)};`,
        ]),
        sql` `,
      )} end`.execute(db);
  } else {
    await sql`create function users_student_marks() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          ${sql.join(
            MARK_ORDERS.map((order) => sql`${bumpMark(order, 'new', 1)};`),
            sql` `,
          )}
          return null;
        end if;
        ${sql.join(
          MARK_ORDERS.map(
            (order) => sql`if ${moved(order)} then
              if ${counted('old')} then ${bumpMark(order, 'old', -1)}; end if;
              if ${counted('new')} then ${bumpMark(order, 'new', 1)}; end if;
            end if;`,
          ),
          sql` `,
        )}
        return null;
      end $$`.execute(db);
    await sql`create trigger users_student_marks_insert after insert on users
      for each row when ${counted('new')} execute function users_student_marks()`.execute(db);
    await sql`create trigger users_student_marks_update after update of ${keys} on users
      for each row when (${counted('old')} or ${counted('new')}) execute function users_student_marks()`.execute(db);
  }

  const now = new Date().toISOString();
  await db
    .insertInto('scheduled_tasks')
    .values({
      task_type: 'students.split_marks',
      name: 'Cut the students’ crowded pages',
      description:
        'Cuts the buckets of the students’ list orders that grew past 16,384 students into buckets of 4,096, so that a deep page stays as quick as the first (ADR 0024).',
      cron: '*/10 * * * *',
      enabled: dialect === 'sqlite' ? 1 : true,
      next_run_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}
