import type { SearchGroup } from '../../platform/module.ts';
import { searchCourses } from './repository.ts';

/** The `courses` group of GET /search: courses, in every publication state, by title, code or slug. */
export const courseSearch: SearchGroup = {
  name: 'courses',
  async search(platform, { q, limit }) {
    const { total, rows } = await searchCourses(platform.database.db, platform.database.dialect, q, limit);
    return {
      total,
      items: rows.map((row) => ({
        id: row.id,
        type: 'course',
        title: row.title,
        path: `/api/v1/courses/${row.slug}`,
        slug: row.slug,
        code: row.code,
        status: row.status,
      })),
    };
  },
};
