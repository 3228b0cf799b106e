import type { Registry } from 'prom-client';
import { scrapedGauge } from '../../platform/metrics.ts';
import type { Platform } from '../../platform/platform.ts';
import { createNotificationRepository } from './repository.ts';

/** Identity notifications by delivery status, read when Prometheus scrapes. */
export function notificationMetrics(registry: Registry, platform: Platform): void {
  const notifications = createNotificationRepository(platform.database.db);
  scrapedGauge(registry, platform, {
    name: 'academy_notifications',
    help: 'Identity notifications by delivery status (queued, sent, failed).',
    labelNames: ['status'],
    async read(set) {
      for (const row of await notifications.countByStatus()) set({ status: row.status }, row.n);
    },
  });
}
