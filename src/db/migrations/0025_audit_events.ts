import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { columns } from './columns.ts';

// The audit trail (CONTRACT, "Audit trail"): one row per change, written in the change's transaction,
// with indexes for the list's filters (by time, by actor, by subject), and the daily task that
// deletes events past their retention. Values are written out here, not imported, so this migration
// keeps meaning what it meant when it was released.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const c = columns(dialect);
  await c
    .id(db.schema.createTable('audit_events'))
    .addColumn('occurred_at', c.timestamp, (col) => col.notNull())
    .addColumn('actor_type', 'text', (col) => col.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('actor_name', 'text')
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('subject_type', 'text', (col) => col.notNull())
    .addColumn('subject_id', 'integer')
    .addColumn('via', 'text', (col) => col.notNull())
    .addColumn('request_id', 'text')
    .addColumn('ip', 'text')
    .addColumn('changes', c.json)
    .execute();
  await db.schema.createIndex('audit_events_by_time').on('audit_events').columns(['occurred_at', 'id']).execute();
  await db.schema.createIndex('audit_events_by_actor').on('audit_events').columns(['actor_type', 'actor_id', 'id']).execute();
  await db.schema.createIndex('audit_events_by_subject').on('audit_events').columns(['subject_type', 'subject_id', 'id']).execute();

  const now = new Date().toISOString();
  await db
    .insertInto('scheduled_tasks')
    .values({
      task_type: 'audit.purge',
      name: 'Purge old audit events',
      description: 'Deletes audit events older than their retention (ACADEMY_AUDIT_RETENTION_DAYS, 400 days by default).',
      cron: '45 3 * * *',
      enabled: dialect === 'sqlite' ? 1 : true,
      next_run_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}
