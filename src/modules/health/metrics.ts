import type { Registry } from 'prom-client';
import { scrapedGauge } from '../../platform/metrics.ts';
import type { Platform } from '../../platform/platform.ts';
import { HEALTH_STATUSES } from './checks.ts';
import { createHealthRepository } from './repository.ts';

/** The last status of each health check, read when Prometheus scrapes. */
export function healthMetrics(registry: Registry, platform: Platform): void {
  const health = createHealthRepository(platform.database.db);
  scrapedGauge(registry, platform, {
    name: 'academy_health_check_status',
    help: 'The last status of each health check: 1 for the status it has, 0 for the others.',
    labelNames: ['check', 'status'],
    async read(set) {
      for (const row of await health.lastStatuses()) {
        for (const status of HEALTH_STATUSES) set({ check: row.name, status }, row.last_status === status ? 1 : 0);
      }
    },
  });
}
