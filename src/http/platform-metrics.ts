import { Gauge, type Registry } from 'prom-client';
import { createHealthRepository } from '../modules/health/repository.ts';
import { createIntegrationRepository } from '../modules/integrations/repository.ts';
import { createNotificationRepository } from '../modules/notifications/repository.ts';
import { createWebhookRepository } from '../modules/webhooks/repository.ts';
import { createJobMetricsRepository } from '../platform/jobs/metrics-repository.ts';
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
  const jobs = createJobMetricsRepository(db);
  const webhooks = createWebhookRepository(db);
  const notifications = createNotificationRepository(db);
  const integrations = createIntegrationRepository(db);
  const health = createHealthRepository(db);
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
        for (const row of await jobs.countByNameAndState()) this.set({ name: row.name, state: row.state }, row.n);
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
        const rows = await jobs.oldestWaiting(now.toISOString());
        for (const row of rows) this.set({ name: row.name }, Math.max(0, (now.getTime() - Date.parse(row.oldest)) / 1000));
      });
    },
  });

  for (const [name, countByStatus, help] of [
    ['academy_webhook_deliveries', webhooks.countDeliveriesByStatus, 'Webhook deliveries by status (pending, succeeded, failed…).'],
    ['academy_notifications', notifications.countByStatus, 'Identity notifications by delivery status (queued, sent, failed).'],
    ['academy_integration_messages', integrations.countMessagesByStatus, 'Integration messages by status.'],
  ] as const) {
    new Gauge({
      name,
      help,
      labelNames: ['status'],
      registers: [registry],
      async collect() {
        this.reset();
        await quietly(async () => {
          for (const row of await countByStatus()) this.set({ status: row.status }, row.n);
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
        for (const row of await health.lastStatuses()) {
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
