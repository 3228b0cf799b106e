import type { SearchGroup } from '../manifest.ts';

/**
 * The `sessions` group of GET /search: training sessions by name, by id (ADR 0025: names such as
 * "Cohort 12" are shared by thousands of sessions, which a page by name would sort whole).
 */
export const sessionSearch: SearchGroup = {
  name: 'sessions',
  scopes: ['courses:read'],
  columns: ['name', 'starts_on', 'workflow_state', 'course_id'],
  order: 'id',
  matches: ({ db, match }) =>
    db
      .selectFrom('training_sessions')
      .select([
        'training_sessions.id',
        'training_sessions.name',
        'training_sessions.starts_on',
        'training_sessions.workflow_state',
        'training_sessions.course_id',
      ])
      .where(match('training_sessions')),
  details: (page) =>
    page
      .innerJoin('courses', 'courses.id', 'page.course_id')
      .select(['page.name', 'page.starts_on', 'page.workflow_state', 'courses.slug as course']),
  hit: (row: { id: number; name: string; starts_on: string; workflow_state: string; course: string }) => ({
    id: row.id,
    type: 'session',
    title: row.name,
    path: `/api/v1/courses/${row.course}/sessions/${row.id}`,
    course: row.course,
    starts_on: row.starts_on,
    workflow_state: row.workflow_state,
  }),
};
