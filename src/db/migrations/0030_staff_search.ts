import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

// GET /search counts a group's matches up to 1,000 (ADR 0025) and stops there: the students who
// contain a surname are read from the users' trigram index and counted until the thousandth. Staff
// are one user in eleven and written after the students, so counting the staff that contain a
// surname read every student who does first (all 1,812 users for "okafor" at 110,000 users, ten
// times as many at ten times the size). An index of the staff alone finds them without the students:
// - SQLite: an FTS5 table over `users` (external content, nothing stored twice) that holds the staff
//   rows only, kept by triggers in the writing transaction; a user who becomes or stops being staff
//   enters or leaves it;
// - PostgreSQL: a partial trigram index on the stored search text of staff rows, which a query uses
//   when its condition says `is_admin`.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    const trigram = await sql<{ extname: string }>`select extname from pg_extension where extname = 'pg_trgm'`.execute(db);
    if (trigram.rows.length === 0) return;
    await sql`create index users_staff_search on users using gin (search_text gin_trgm_ops) where is_admin`.execute(db);
    return;
  }
  await sql`create virtual table staff_search using fts5(name, email, content='users', content_rowid='id', tokenize='trigram')`.execute(db);
  await sql`insert into staff_search (rowid, name, email) select id, name, email from users where is_admin`.execute(db);
  await sql`create trigger staff_search_insert after insert on users when new.is_admin
    begin insert into staff_search (rowid, name, email) values (new.id, new.name, new.email); end`.execute(db);
  await sql`create trigger staff_search_delete after delete on users when old.is_admin
    begin insert into staff_search (staff_search, rowid, name, email) values ('delete', old.id, old.name, old.email); end`.execute(db);
  // One trigger, so that the old row leaves before the new one enters (two triggers fire in no set order).
  await sql`create trigger staff_search_update after update of name, email, is_admin on users when old.is_admin or new.is_admin
    begin
      insert into staff_search (staff_search, rowid, name, email) select 'delete', old.id, old.name, old.email where old.is_admin;
      insert into staff_search (rowid, name, email) select new.id, new.name, new.email where new.is_admin;
    end`.execute(db);
}
