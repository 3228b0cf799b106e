import type { SearchGroup } from '../manifest.ts';

/** The `assessments` group of GET /search: assessments by title, by id (ADR 0025). */
export const assessmentSearch: SearchGroup = {
  name: 'assessments',
  scopes: ['courses:read'],
  columns: ['title', 'kind', 'session_id'],
  order: 'id',
  matches: ({ db, match }) =>
    db
      .selectFrom('assessments')
      .select(['assessments.id', 'assessments.title', 'assessments.kind', 'assessments.session_id'])
      .where(match('assessments')),
  details: (page) =>
    page
      .innerJoin('training_sessions', 'training_sessions.id', 'page.session_id')
      .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
      .select(['page.title', 'page.kind', 'page.session_id', 'courses.slug as course']),
  hit: (row: { id: number; title: string; kind: string; session_id: number; course: string }) => ({
    id: row.id,
    type: 'assessment',
    title: row.title,
    path: `/api/v1/courses/${row.course}/sessions/${row.session_id}/assessments/${row.id}`,
    course: row.course,
    session_id: row.session_id,
    kind: row.kind,
  }),
};
