import type { SearchGroup } from '../manifest.ts';

/** The `workflows` group of GET /search: workflow instances by workflow key or subject type. */
export const workflowSearch: SearchGroup = {
  name: 'workflows',
  scopes: ['workflows:read'],
  columns: ['workflow', 'state', 'subject_type', 'subject_id'],
  order: 'id',
  matches: ({ db, match }) =>
    db
      .selectFrom('workflow_instances')
      .select([
        'workflow_instances.id',
        'workflow_instances.workflow',
        'workflow_instances.state',
        'workflow_instances.subject_type',
        'workflow_instances.subject_id',
      ])
      .where(match('workflow_instances')),
  hit: (row: { id: number; workflow: string; state: string; subject_type: string | null; subject_id: number | null }) => ({
    id: row.id,
    type: 'workflow',
    title: row.subject_id === null ? row.workflow : `${row.workflow}: ${row.subject_type} ${row.subject_id}`,
    path: `/api/v1/workflows/${row.id}`,
    workflow: row.workflow,
    state: row.state,
  }),
};
