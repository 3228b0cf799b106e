import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

// SQLite's index of the staff alone (`staff_search`, migration 0030) held every user in the
// databases that `academy seed --scale` loaded: the load set its triggers aside and then rebuilt it
// with FTS5's `rebuild`, which indexes every row of its content table (`users`), not the staff
// alone. Its answers stayed right (the staff group also asks `is_admin`), but a surname read the
// 18,393 users who hold it instead of the 1,682 staff at a million students. The index is made
// again from the staff; the load now rebuilds it so too. PostgreSQL's partial index was right.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') return;
  await sql`insert into staff_search (staff_search) values ('delete-all')`.execute(db);
  await sql`insert into staff_search (rowid, name, email) select id, name, email from users where is_admin`.execute(db);
}
