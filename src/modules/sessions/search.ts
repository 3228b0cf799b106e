import type { SearchGroup } from '../manifest.ts';

/** The `sessions` group of GET /search: training sessions by name. */
export const sessionSearch: SearchGroup = {
  name: 'sessions',
  scopes: ['courses:read'],
  columns: ['name', 'starts_on', 'workflow_state', 'course'],
  order: 'name',
  matches: ({ db, match }) =>
    db
      .selectFrom('training_sessions')
      .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
      .select([
        'training_sessions.id',
        'training_sessions.name',
        'training_sessions.starts_on',
        'training_sessions.workflow_state',
        'courses.slug as course',
      ])
      .where(match('training_sessions')),
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
