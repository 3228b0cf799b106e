import type { SearchGroup } from '../../platform/module.ts';
import { searchSessions } from './repository.ts';

/** The `sessions` group of GET /search: training sessions by name. */
export const sessionSearch: SearchGroup = {
  name: 'sessions',
  async search(platform, { q, limit }) {
    const { total, rows } = await searchSessions(platform.database.db, platform.database.dialect, q, limit);
    return {
      total,
      items: rows.map((row) => ({
        id: row.id,
        type: 'session',
        title: row.name,
        path: `/api/v1/courses/${row.course}/sessions/${row.id}`,
        course: row.course,
        starts_on: row.starts_on,
        workflow_state: row.workflow_state,
      })),
    };
  },
};
