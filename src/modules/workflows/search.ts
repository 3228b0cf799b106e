import type { SearchGroup } from '../../platform/module.ts';
import { searchWorkflows } from './repository.ts';

/** The `workflows` group of GET /search: workflow instances by workflow key or subject type. */
export const workflowSearch: SearchGroup = {
  name: 'workflows',
  async search(platform, { q, limit }) {
    const { total, rows } = await searchWorkflows(platform.database.db, platform.database.dialect, q, limit);
    return {
      total,
      items: rows.map((row) => ({
        id: row.id,
        type: 'workflow',
        title: row.subject_id === null ? row.workflow : `${row.workflow}: ${row.subject_type} ${row.subject_id}`,
        path: `/api/v1/workflows/${row.id}`,
        workflow: row.workflow,
        state: row.state,
      })),
    };
  },
};
