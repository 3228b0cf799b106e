import { Histogram, type Registry } from 'prom-client';
import { scrapedGauge } from '../../platform/metrics.ts';
import type { Platform } from '../../platform/platform.ts';
import { createWebhookRepository } from './repository.ts';

/**
 * How long each delivery attempt took, from the request's start to the receiver's answer (or the
 * failure), by outcome: `success` (2xx), `http_error` (another status) or `network_error` (no answer:
 * refused, timed out, reset). Observed in the process that delivers (a worker); kept in one object so
 * that each registry of the process shows it.
 */
export const deliveryDuration = new Histogram({
  name: 'academy_webhook_delivery_duration_seconds',
  help: 'Webhook delivery attempts by outcome (success, http_error, network_error) and how long each took.',
  labelNames: ['outcome'],
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [],
});

/** Webhook deliveries by status, read when Prometheus scrapes, and the attempts' durations. */
export function webhookMetrics(registry: Registry, platform: Platform): void {
  registry.registerMetric(deliveryDuration);
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
