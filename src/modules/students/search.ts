import type { SearchGroup } from '../manifest.ts';
import { isStudent } from './repository.ts';

/** The `students` group of GET /search: students by name or email, by name. */
export const studentSearch: SearchGroup = {
  name: 'students',
  scopes: ['students:read'],
  columns: ['name', 'email'],
  order: 'name',
  matches: ({ db, user }) =>
    db.selectFrom('users').select(['users.id', 'users.name', 'users.email']).where(isStudent).where(user('users.id')),
  hit: (row: { id: number; name: string; email: string }) => ({
    id: row.id,
    type: 'student',
    title: row.name,
    path: `/api/v1/students/${row.id}`,
    email: row.email,
  }),
};
