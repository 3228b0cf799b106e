import type { SearchGroup } from '../../platform/module.ts';
import { searchAssessments } from './repository.ts';

/** The `assessments` group of GET /search: assessments by title. */
export const assessmentSearch: SearchGroup = {
  name: 'assessments',
  async search(platform, { q, limit }) {
    const { total, rows } = await searchAssessments(platform.database.db, platform.database.dialect, q, limit);
    return {
      total,
      items: rows.map((row) => ({
        id: row.id,
        type: 'assessment',
        title: row.title,
        path: `/api/v1/courses/${row.course}/sessions/${row.session_id}/assessments/${row.id}`,
        course: row.course,
        session_id: row.session_id,
        kind: row.kind,
      })),
    };
  },
};
