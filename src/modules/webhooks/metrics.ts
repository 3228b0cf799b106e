import type { Registry } from 'prom-client';
import { scrapedGauge } from '../../platform/metrics.ts';
import type { Platform } from '../../platform/platform.ts';
import { createWebhookRepository } from './repository.ts';

/** Webhook deliveries by status, read when Prometheus scrapes. */
export function webhookMetrics(registry: Registry, platform: Platform): void {
  const webhooks = createWebhookRepository(platform.database.db);
  scrapedGauge(registry, platform, {
    name: 'academy_webhook_deliveries',
    help: 'Webhook deliveries by status (pending, succeeded, failed…).',
    labelNames: ['status'],
    async read(set) {
      for (const row of await webhooks.countDeliveriesByStatus()) set({ status: row.status }, row.n);
    },
  });
}
