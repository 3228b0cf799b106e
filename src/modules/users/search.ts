import type { SearchGroup } from '../manifest.ts';

/** The `users` group of GET /search: staff users by name or email, by name; a student never appears. */
export const userSearch: SearchGroup = {
  name: 'users',
  scopes: ['users:read'],
  columns: ['name', 'email', 'status'],
  order: 'name',
  matches: ({ db, user }) =>
    db
      .selectFrom('users')
      .select(['users.id', 'users.name', 'users.email', 'users.status'])
      .where('users.is_admin', '=', true)
      .where(user('users.id')),
  hit: (row: { id: number; name: string; email: string; status: string }) => ({
    id: row.id,
    type: 'user',
    title: row.name,
    path: `/api/v1/users/${row.id}`,
    email: row.email,
    status: row.status,
  }),
};
