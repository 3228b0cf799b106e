import type { SearchGroup } from '../manifest.ts';

/** The `meetings` group of GET /search: meetings by location, by id (ADR 0025: one room holds thousands, which a page by day would sort). */
export const meetingSearch: SearchGroup = {
  name: 'meetings',
  scopes: ['courses:read'],
  columns: ['location', 'held_on', 'status', 'session_id'],
  order: 'id',
  matches: ({ db, match }) =>
    db
      .selectFrom('meetings')
      .select(['meetings.id', 'meetings.location', 'meetings.held_on', 'meetings.status', 'meetings.session_id'])
      .where(match('meetings')),
  details: (page) =>
    page
      .innerJoin('training_sessions', 'training_sessions.id', 'page.session_id')
      .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
      .select(['page.location', 'page.held_on', 'page.status', 'page.session_id', 'courses.slug as course']),
  hit: (row: { id: number; location: string | null; held_on: string; status: string; session_id: number; course: string }) => ({
    id: row.id,
    type: 'meeting',
    title: row.location ?? '',
    path: `/api/v1/courses/${row.course}/sessions/${row.session_id}/meetings/${row.id}`,
    course: row.course,
    session_id: row.session_id,
    held_on: row.held_on,
    status: row.status,
  }),
};
