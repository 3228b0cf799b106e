import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { columns } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const c = columns(dialect);

  // The durable job queue. Completed jobs are deleted; a job that exhausted its attempts stays with
  // `failed_at` set, for inspection. `key` de-duplicates pending work.
  await c
    .id(db.schema.createTable('jobs'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('payload', c.json, (col) => col.notNull())
    .addColumn('key', 'text', (col) => col.unique())
    .addColumn('run_at', c.timestamp, (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (col) => col.notNull())
    .addColumn('last_error', 'text')
    .addColumn('locked_by', 'text')
    .addColumn('locked_at', c.timestamp)
    .addColumn('failed_at', c.timestamp)
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('jobs_claimable').on('jobs').columns(['failed_at', 'locked_at', 'run_at']).execute();

  // The outbox of domain events, written in the same transaction as the change they describe.
  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('version', 'text', (col) => col.notNull())
    .addColumn('occurred_at', c.timestamp, (col) => col.notNull())
    .addColumn('payload', c.json, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('events_type_occurred').on('events').columns(['type', 'occurred_at']).execute();

  await c
    .id(db.schema.createTable('webhook_endpoints'))
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('secret', 'text', (col) => col.notNull())
    .addColumn('events', c.json)
    .addColumn('enabled', c.bool, (col) => col.notNull())
    .addColumn('disabled_reason', 'text')
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();

  await c
    .id(db.schema.createTable('webhook_deliveries'))
    .addColumn('endpoint_id', 'integer', (col) => col.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (col) => col.notNull().references('events.id'))
    .addColumn('event_type', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', c.timestamp)
    .addColumn('completed_at', c.timestamp)
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .addUniqueConstraint('webhook_deliveries_endpoint_event', ['endpoint_id', 'event_id'])
    .execute();

  await c
    .id(db.schema.createTable('integrations'))
    .addColumn('key', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('events', c.json)
    .addColumn('auth_header', 'text')
    .addColumn('enabled', c.bool, (col) => col.notNull())
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();

  await c
    .id(db.schema.createTable('integration_messages'))
    .addColumn('integration_id', 'integer', (col) => col.notNull().references('integrations.id').onDelete('cascade'))
    .addColumn('integration_key', 'text', (col) => col.notNull())
    .addColumn('event_id', 'text', (col) => col.references('events.id'))
    .addColumn('event_type', 'text', (col) => col.notNull())
    .addColumn('payload', c.json, (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (col) => col.notNull())
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('delivered_at', c.timestamp)
    .addColumn('failed_at', c.timestamp)
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('integration_messages_key_status')
    .on('integration_messages')
    .columns(['integration_key', 'status'])
    .execute();

  await c
    .id(db.schema.createTable('scheduled_tasks'))
    .addColumn('task_type', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('cron', 'text', (col) => col.notNull())
    .addColumn('enabled', c.bool, (col) => col.notNull())
    .addColumn('last_run_at', c.timestamp)
    .addColumn('next_run_at', c.timestamp)
    .addColumn('last_outcome', 'text')
    .addColumn('last_error', 'text')
    .addColumn('last_duration_ms', 'integer')
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();

  await c
    .id(db.schema.createTable('scheduled_task_runs'))
    .addColumn('task_id', 'integer', (col) => col.notNull().references('scheduled_tasks.id').onDelete('cascade'))
    .addColumn('trigger', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('scheduled_for', c.timestamp)
    .addColumn('queued_at', c.timestamp, (col) => col.notNull())
    .addColumn('started_at', c.timestamp)
    .addColumn('finished_at', c.timestamp)
    .addColumn('error', 'text')
    .execute();
  await db.schema.createIndex('scheduled_task_runs_task').on('scheduled_task_runs').columns(['task_id', 'id']).execute();

  await c
    .id(db.schema.createTable('health_checks'))
    .addColumn('name', 'text', (col) => col.notNull().unique())
    .addColumn('component_type', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('enabled', c.bool, (col) => col.notNull())
    .addColumn('warn_threshold', 'real')
    .addColumn('fail_threshold', 'real')
    .addColumn('timeout_ms', 'integer', (col) => col.notNull())
    .addColumn('last_status', 'text')
    .addColumn('last_checked_at', c.timestamp)
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('runtime_state')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();
}
