import type { SearchGroup } from '../manifest.ts';

/** The `resources` group of GET /search: published learning resources by title, by id (ADR 0025); a draft never appears. */
export const resourceSearch: SearchGroup = {
  name: 'resources',
  scopes: ['courses:read'],
  columns: ['title', 'type', 'session_id'],
  order: 'id',
  matches: ({ db, match }) =>
    db
      .selectFrom('learning_resources')
      .select(['learning_resources.id', 'learning_resources.title', 'learning_resources.type', 'learning_resources.session_id'])
      .where('learning_resources.status', '=', 'published')
      .where(match('learning_resources')),
  details: (page) =>
    page
      .innerJoin('training_sessions', 'training_sessions.id', 'page.session_id')
      .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
      .select(['page.title', 'page.type', 'page.session_id', 'courses.slug as course']),
  hit: (row: { id: number; title: string; type: string; session_id: number; course: string }) => ({
    id: row.id,
    type: 'resource',
    title: row.title,
    path: `/api/v1/courses/${row.course}/sessions/${row.session_id}/resources/${row.id}`,
    course: row.course,
    session_id: row.session_id,
    resource_type: row.type,
  }),
};
