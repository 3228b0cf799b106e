import type { SearchGroup } from '../../platform/module.ts';
import { searchResources } from './repository.ts';

/** The `resources` group of GET /search: published learning resources by title; a draft never appears. */
export const resourceSearch: SearchGroup = {
  name: 'resources',
  async search(platform, { q, limit }) {
    const { total, rows } = await searchResources(platform.database.db, platform.database.dialect, q, limit);
    return {
      total,
      items: rows.map((row) => ({
        id: row.id,
        type: 'resource',
        title: row.title,
        path: `/api/v1/courses/${row.course}/sessions/${row.session_id}/resources/${row.id}`,
        course: row.course,
        session_id: row.session_id,
        resource_type: row.type,
      })),
    };
  },
};
