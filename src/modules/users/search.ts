import { type SqlBool, sql } from 'kysely';
import type { SearchGroup } from '../manifest.ts';

/**
 * The `users` group of GET /search: staff users by name or email, by id; a student never appears.
 * Looked up in the index of the staff alone (`staff`, migration 0030), whose partial index on
 * PostgreSQL a query uses when it says `is_admin = true` in those words, never as a parameter; on
 * PostgreSQL a text within a few words or pairs is read from the staff's terms instead (`indexed`:
 * `staff_terms` holds exactly the staff, migration 0041).
 */
export const userSearch: SearchGroup = {
  name: 'users',
  scopes: ['users:read'],
  columns: ['name', 'email', 'status'],
  order: 'id',
  indexed: true,
  matches: ({ db, match }) =>
    db
      .selectFrom('users')
      .select(['users.id', 'users.name', 'users.email', 'users.status'])
      .where(sql<SqlBool>`users.is_admin = true`)
      .where(match('staff', 'users')),
  hit: (row: { id: number; name: string; email: string; status: string }) => ({
    id: row.id,
    type: 'user',
    title: row.name,
    path: `/api/v1/users/${row.id}`,
    email: row.email,
    status: row.status,
  }),
};
