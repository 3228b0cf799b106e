import { sql } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import type { Platform } from '../platform/platform.ts';
import { rateLimitRefusals } from './rate-limit.ts';

const HEALTH_STATUSES = ['pass', 'warn', 'fail'] as const;

/**
 * What the database says about the background work, read when Prometheus scrapes (one small query
 * per family, nothing on the request path): jobs by name and state with the age of the oldest
 * waiting one, webhook deliveries and identity notifications by status, the last status of each
 * health check; and the rate-limit refusals counted by this process. A failing query leaves its
 * family out of that scrape rather than failing it.
 */
export function addPlatformMetrics(registry: Registry, platform: Platform): void {
  const { db } = platform.database;
  const quietly = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      platform.logger.warn({ err: error }, 'metrics: the database could not be read for a scrape');
    }
  };

  new Gauge({
    name: 'academy_jobs',
    help: 'Jobs in the queue by name and state (waiting: due or scheduled, not claimed; running: claimed; failed: given up).',
    labelNames: ['name', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      await quietly(async () => {
        const rows = await db
          .selectFrom('jobs')
          .select([
            'name',
            sql<string>`case when failed_at is not null then 'failed' when locked_by is not null then 'running' else 'waiting' end`.as(
              'state',
            ),
            sql<number | string>`count(*)`.as('n'),
          ])
          .groupBy(['name', sql`2`])
          .execute();
        for (const row of rows) this.set({ name: row.name, state: row.state }, Number(row.n));
      });
    },
  });

  new Gauge({
    name: 'academy_jobs_oldest_waiting_seconds',
    help: 'Age of the oldest due job that no worker has claimed yet, by name (0 when none waits).',
    labelNames: ['name'],
    registers: [registry],
    async collect() {
      this.reset();
      await quietly(async () => {
        const now = platform.clock.now();
        const rows = await db
          .selectFrom('jobs')
          .select(['name', sql<string>`min(run_at)`.as('oldest')])
          .where('failed_at', 'is', null)
          .where('locked_by', 'is', null)
          .where('run_at', '<=', now.toISOString())
          .groupBy('name')
          .execute();
        for (const row of rows) this.set({ name: row.name }, Math.max(0, (now.getTime() - Date.parse(row.oldest)) / 1000));
      });
    },
  });

  for (const [name, table, help] of [
    ['academy_webhook_deliveries', 'webhook_deliveries', 'Webhook deliveries by status (pending, succeeded, failed…).'],
    ['academy_notifications', 'notifications', 'Identity notifications by delivery status (queued, sent, failed).'],
    ['academy_integration_messages', 'integration_messages', 'Integration messages by status.'],
  ] as const) {
    new Gauge({
      name,
      help,
      labelNames: ['status'],
      registers: [registry],
      async collect() {
        this.reset();
        await quietly(async () => {
          const rows = await (db as never as import('kysely').Kysely<Record<string, { status: string }>>)
            .selectFrom(table)
            .select(['status', sql<number | string>`count(*)`.as('n')])
            .groupBy('status')
            .execute();
          for (const row of rows) this.set({ status: row.status }, Number(row.n));
        });
      },
    });
  }

  new Gauge({
    name: 'academy_health_check_status',
    help: 'The last status of each health check: 1 for the status it has, 0 for the others.',
    labelNames: ['check', 'status'],
    registers: [registry],
    async collect() {
      this.reset();
      await quietly(async () => {
        const rows = await db.selectFrom('health_checks').select(['name', 'last_status']).execute();
        for (const row of rows) {
          for (const status of HEALTH_STATUSES) this.set({ check: row.name, status }, row.last_status === status ? 1 : 0);
        }
      });
    },
  });

  new Gauge({
    name: 'academy_rate_limited_requests',
    help: 'Requests this process refused with a 429, by policy, since it started (a counter; reset on restart).',
    labelNames: ['policy'],
    registers: [registry],
    collect() {
      for (const [policy, count] of rateLimitRefusals) this.set({ policy }, count);
    },
  });
}
