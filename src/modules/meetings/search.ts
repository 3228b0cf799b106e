import type { SearchGroup } from '../manifest.ts';

/** The `meetings` group of GET /search: meetings by location, by day. */
export const meetingSearch: SearchGroup = {
  name: 'meetings',
  scopes: ['courses:read'],
  columns: ['location', 'held_on', 'status', 'session_id', 'course'],
  order: 'held_on',
  matches: ({ db, match }) =>
    db
      .selectFrom('meetings')
      .innerJoin('training_sessions', 'training_sessions.id', 'meetings.session_id')
      .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
      .select(['meetings.id', 'meetings.location', 'meetings.held_on', 'meetings.status', 'meetings.session_id', 'courses.slug as course'])
      .where(match('meetings')),
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
