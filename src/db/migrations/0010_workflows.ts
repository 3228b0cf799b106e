import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { columns } from './columns.ts';

/**
 * Workflow instances (approvals of a subject such as a course) and the decisions that moved them.
 * The definitions (states, moves, required permission) live in code; a row names its definition by
 * key. Every filter and sort of `GET /workflows` has an index.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const c = columns(dialect);

  await c
    .id(db.schema.createTable('workflow_instances'))
    .addColumn('workflow', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('subject_type', 'text')
    .addColumn('subject_id', 'integer')
    .addColumn('assignee_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();
  for (const column of ['state', 'created_at', 'updated_at', 'assignee_id']) {
    await db.schema.createIndex(`workflow_instances_${column}`).on('workflow_instances').column(column).execute();
  }
  await db.schema.createIndex('workflow_instances_workflow_state').on('workflow_instances').columns(['workflow', 'state']).execute();
  await db.schema
    .createIndex('workflow_instances_subject')
    .on('workflow_instances')
    .columns(['subject_type', 'subject_id', 'workflow'])
    .execute();

  await c
    .id(db.schema.createTable('workflow_decisions'))
    .addColumn('instance_id', 'integer', (col) => col.notNull().references('workflow_instances.id').onDelete('cascade'))
    .addColumn('from_state', 'text', (col) => col.notNull())
    .addColumn('to_state', 'text', (col) => col.notNull())
    .addColumn('decided_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('comment', 'text')
    .addColumn('decided_at', c.timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('workflow_decisions_instance').on('workflow_decisions').columns(['instance_id', 'id']).execute();
  await db.schema.createIndex('workflow_decisions_decided_by').on('workflow_decisions').column('decided_by').execute();
}
