import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

// PostgreSQL: the lowercased search text of users (name and email joined by U+001F, exactly what
// migration 0012 indexed) kept in a stored generated column, and the trigram index moved onto it.
// A students page with `search` in id order walks the primary key and tests each user until the page
// is full: about 1,000 users for a surname one in sixty share, each of which computed
// lower(coalesce(name) || chr(31) || coalesce(email)) again (0.46 ms a page); comparing a stored
// column costs half (0.25 ms), and so does rechecking the rows the index finds. The column is
// computed by PostgreSQL on every insert and update, so no write path can leave it stale. SQLite
// searches through its FTS5 index (migration 0012) and needs no such column.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`alter table users add column search_text text generated always as (lower(coalesce(name, '') || chr(31) || coalesce(email, ''))) stored`.execute(
    db,
  );
  const trigram = await sql<{ extname: string }>`select extname from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (trigram.rows.length === 0) return;
  await sql`drop index if exists users_search`.execute(db);
  await sql`create index users_search on users using gin (search_text gin_trgm_ops)`.execute(db);
  // The planner estimates how many users contain a text from the column's histogram, which must be
  // fine enough to tell a surname one in sixty share (walk the ids, stop at the page) from an email
  // (look it up in the index): with the default 100 entries it guessed 8 users for 1,812 and sorted
  // them all. 300 entries tell them apart and cost less to plan with than 1,000.
  await sql`alter table users alter column search_text set statistics 300`.execute(db);
  // A parallel plan for counting the students of a common text (the planner's choice once it sees
  // the text's thousands of rows) spent longer starting its worker than counting: 10–11.5 ms
  // against 6.2–6.4 ms alone. Users are read by index, a page or a count at a time.
  await sql`alter table users set (parallel_workers = 0)`.execute(db);
  await sql`analyze users`.execute(db);
}
