import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { columns } from './columns.ts';

/** Students are counted per range of this many ids (ADR 0024): a page in id order starts in its range. */
export const STUDENT_ID_RANGE = 4096;

// Students at ten times the size (ADR 0024). A student was a user without staff rights that has a
// course application, found by looking the application up for every user: a count or a deep page
// tested a million users that way. Now:
// - `users.is_student`, set by a trigger when the user's first application is inserted (applications
//   are never deleted), so that being a student is a column of the user's row;
// - indexes of the students alone, one per order the list offers, with `email_verified` for its
//   filter: a page or a count reads them without the table;
// - `student_counts`, the students of each range of STUDENT_ID_RANGE ids by `email_verified`, kept by
//   triggers in the writing transaction: the list's total is a sum of a few hundred rows, and a page
//   in id order starts at the range that holds it instead of skipping every student before it.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const c = columns(dialect);
  const yes = dialect === 'sqlite' ? sql`1` : sql`true`;
  await db.schema
    .alterTable('users')
    .addColumn('is_student', c.bool, (col) => col.notNull().defaultTo(false))
    .execute();
  await sql`update users set is_student = ${yes} where exists (select 1 from course_applications as a where a.user_id = users.id)`.execute(
    db,
  );

  await db.schema
    .createTable('student_counts')
    .addColumn('id_range', 'integer', (col) => col.notNull())
    .addColumn('email_verified', c.bool, (col) => col.notNull())
    .addColumn('students', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('student_counts_pk', ['id_range', 'email_verified'])
    .execute();
  const range = sql.lit(STUDENT_ID_RANGE);
  await sql`insert into student_counts (id_range, email_verified, students)
    select id / ${range}, email_verified, count(*) from users where is_student and not is_admin group by id / ${range}, email_verified`.execute(
    db,
  );

  for (const order of ['id', 'name', 'email', 'created_at', 'updated_at']) {
    const keys = order === 'id' ? ['id', 'email_verified'] : [order, 'id', 'email_verified'];
    await sql`create index ${sql.id(`users_students_${order}`)} on users (${sql.join(keys.map((k) => sql.id(k)))}) where is_student and not is_admin`.execute(
      db,
    );
  }

  const add = (row: 'new' | 'old', step: 1 | -1) => {
    const r = sql.raw(row);
    return sql`insert into student_counts as counted (id_range, email_verified, students)
      select ${r}.id / ${range}, ${r}.email_verified, ${sql.lit(step)} where ${r}.is_student and not ${r}.is_admin
      on conflict (id_range, email_verified) do update set students = counted.students + ${sql.lit(step)};`;
  };
  const differs = sql.raw(dialect === 'sqlite' ? 'is not' : 'is distinct from');
  const changed = sql`(old.is_student and not old.is_admin) ${differs} (new.is_student and not new.is_admin) or old.email_verified ${differs} new.email_verified`;
  if (dialect === 'sqlite') {
    await sql`create trigger course_applications_student after insert on course_applications
      begin update users set is_student = 1 where id = new.user_id and not is_student; end`.execute(db);
    await sql`create trigger users_student_counts_insert after insert on users when new.is_student and not new.is_admin
      begin ${add('new', 1)} end`.execute(db);
    await sql`create trigger users_student_counts_update after update of is_student, is_admin, email_verified on users when ${changed}
      begin ${add('old', -1)} ${add('new', 1)} end`.execute(db);
    return;
  }
  await sql`create function course_applications_student() returns trigger language plpgsql as $$
    begin update users set is_student = true where id = new.user_id and not is_student; return null; end $$`.execute(db);
  await sql`create trigger course_applications_student after insert on course_applications
    for each row execute function course_applications_student()`.execute(db);
  await sql`create function users_student_counts() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' then ${add('old', -1)} end if;
      ${add('new', 1)}
      return null;
    end $$`.execute(db);
  await sql`create trigger users_student_counts_insert after insert on users
    for each row when (new.is_student and not new.is_admin) execute function users_student_counts()`.execute(db);
  await sql`create trigger users_student_counts_update after update of is_student, is_admin, email_verified on users
    for each row when (${changed}) execute function users_student_counts()`.execute(db);
}
