import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

// The built-in scheduled tasks and health checks. Values are written out here, not imported, so this
// migration keeps meaning what it meant when it was released.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const now = new Date().toISOString();
  const yes = dialect === 'sqlite' ? 1 : true;

  const tasks = [
    {
      task_type: 'idempotency.prune',
      name: 'Prune idempotency keys',
      description: 'Deletes stored Idempotency-Key responses older than their 24 hours.',
      cron: '17 * * * *',
    },
    {
      task_type: 'health.run_checks',
      name: 'Run health checks',
      description: 'Runs every enabled health check, records each status and sends alert.sent when the overall status gets worse.',
      cron: '* * * * *',
    },
    {
      task_type: 'jobs.prune_failed',
      name: 'Prune failed jobs',
      description: 'Deletes background jobs that failed for good more than 30 days ago.',
      cron: '30 3 * * *',
    },
  ];
  await db
    .insertInto('scheduled_tasks')
    .values(tasks.map((task) => ({ ...task, enabled: yes, next_run_at: null, created_at: now, updated_at: now })))
    .execute();

  // Thresholds: ms for latencies, seconds for ages, percent free for the disk (lower is worse there).
  const checks = [
    {
      name: 'database',
      component_type: 'datastore',
      description: 'Round-trip time of a query to the database.',
      warn_threshold: 100,
      fail_threshold: 1000,
      timeout_ms: 2000,
    },
    {
      name: 'redis',
      component_type: 'datastore',
      description: 'PING round-trip time to Redis (only when REDIS_URL is set).',
      warn_threshold: 100,
      fail_threshold: 1000,
      timeout_ms: 1000,
    },
    {
      name: 'queue',
      component_type: 'component',
      description: 'Age in seconds of the oldest due job no worker has claimed.',
      warn_threshold: 60,
      fail_threshold: 600,
      timeout_ms: 2000,
    },
    {
      name: 'storage',
      component_type: 'system',
      description: 'Writes, reads back and deletes a probe file in file storage.',
      warn_threshold: 1000,
      fail_threshold: null,
      timeout_ms: 3000,
    },
    {
      name: 'mail',
      component_type: 'component',
      description: 'The SMTP server accepts a connection, or the mail directory is writable.',
      warn_threshold: null,
      fail_threshold: null,
      timeout_ms: 5000,
    },
    {
      name: 'disk',
      component_type: 'system',
      description: 'Free space of the data directory, in percent.',
      warn_threshold: 10,
      fail_threshold: 5,
      timeout_ms: 2000,
    },
    {
      name: 'scheduler',
      component_type: 'component',
      description: 'Seconds since a scheduler last recorded its heartbeat.',
      warn_threshold: 120,
      fail_threshold: 600,
      timeout_ms: 2000,
    },
  ];
  await db
    .insertInto('health_checks')
    .values(checks.map((check) => ({ ...check, enabled: yes, last_status: null, last_checked_at: null, created_at: now, updated_at: now })))
    .execute();
}
