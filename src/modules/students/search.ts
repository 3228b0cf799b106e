import type { SearchGroup } from '../manifest.ts';
import { isStudent } from './repository.ts';

/**
 * The `students` group of GET /search: students by name or email, by id (ADR 0025: a page by name
 * would sort every match; the users' index reads them in id order and stops at the page's end).
 */
export const studentSearch: SearchGroup = {
  name: 'students',
  scopes: ['students:read'],
  columns: ['name', 'email'],
  order: 'id',
  indexed: true,
  matches: ({ db, match }) =>
    db.selectFrom('users').select(['users.id', 'users.name', 'users.email']).where(isStudent).where(match('users')),
  hit: (row: { id: number; name: string; email: string }) => ({
    id: row.id,
    type: 'student',
    title: row.name,
    path: `/api/v1/students/${row.id}`,
    email: row.email,
  }),
};
