import type { SearchGroup } from '../../platform/module.ts';
import { searchMeetings } from './repository.ts';

/** The `meetings` group of GET /search: meetings by location. */
export const meetingSearch: SearchGroup = {
  name: 'meetings',
  async search(platform, { q, limit }) {
    const { total, rows } = await searchMeetings(platform.database.db, platform.database.dialect, q, limit);
    return {
      total,
      items: rows.map((row) => ({
        id: row.id,
        type: 'meeting',
        title: row.location ?? '',
        path: `/api/v1/courses/${row.course}/sessions/${row.session_id}/meetings/${row.id}`,
        course: row.course,
        session_id: row.session_id,
        held_on: row.held_on,
        status: row.status,
      })),
    };
  },
};
