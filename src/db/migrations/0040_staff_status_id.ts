import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

// The staff of one status in id order (migration 0029 made the other orders' indexes), on PostgreSQL:
// `GET /users?status=active&sort=id` read every active staff user from another order's index and
// sorted them to keep one page, 15 ms at 100,000 staff. SQLite's `users_admin_status (is_admin,
// status)` already gives them in id order (an index's entries end with the rowid, the id); there a
// second such index led its planner to sort a status's staff for a page in name order (45 ms).
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`create index users_staff_status_id on users (status, id) where is_admin = true`.execute(db);
}
