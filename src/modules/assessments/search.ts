import type { SearchGroup } from '../manifest.ts';

/** The `assessments` group of GET /search: assessments by title. */
export const assessmentSearch: SearchGroup = {
  name: 'assessments',
  scopes: ['courses:read'],
  columns: ['title', 'kind', 'session_id', 'course'],
  order: 'title',
  matches: ({ db, match }) =>
    db
      .selectFrom('assessments')
      .innerJoin('training_sessions', 'training_sessions.id', 'assessments.session_id')
      .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
      .select(['assessments.id', 'assessments.title', 'assessments.kind', 'assessments.session_id', 'courses.slug as course'])
      .where(match('assessments')),
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
