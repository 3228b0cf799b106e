import type { SearchGroup } from '../manifest.ts';

/** The `courses` group of GET /search: courses, in every publication state, by title, code or slug. */
export const courseSearch: SearchGroup = {
  name: 'courses',
  scopes: ['courses:read'],
  columns: ['slug', 'code', 'title', 'status'],
  order: 'title',
  matches: ({ db, match }) =>
    db
      .selectFrom('courses')
      .select(['courses.id', 'courses.slug', 'courses.code', 'courses.title', 'courses.status'])
      .where(match('courses')),
  hit: (row: { id: number; slug: string; code: string; title: string; status: string }) => ({
    id: row.id,
    type: 'course',
    title: row.title,
    path: `/api/v1/courses/${row.slug}`,
    slug: row.slug,
    code: row.code,
    status: row.status,
  }),
};
