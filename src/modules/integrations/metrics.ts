import type { Registry } from 'prom-client';
import { scrapedGauge } from '../../platform/metrics.ts';
import type { Platform } from '../../platform/platform.ts';
import { createIntegrationRepository } from './repository.ts';

/** Integration messages by status, read when Prometheus scrapes. */
export function integrationMetrics(registry: Registry, platform: Platform): void {
  const integrations = createIntegrationRepository(platform.database.db);
  scrapedGauge(registry, platform, {
    name: 'academy_integration_messages',
    help: 'Integration messages by status.',
    labelNames: ['status'],
    async read(set) {
      for (const row of await integrations.countMessagesByStatus()) set({ status: row.status }, row.n);
    },
  });
}
