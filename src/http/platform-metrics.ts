import { Gauge, type Registry } from 'prom-client';
import { createJobMetricsRepository } from '../platform/jobs/metrics-repository.ts';
import { scrapedGauge } from '../platform/metrics.ts';
import type { Platform } from '../platform/platform.ts';
import { rateLimitRefusals } from './rate-limit.ts';

/**
 * The metrics of the background work and of the modules, read when Prometheus scrapes (nothing on
 * the request path): jobs by name and state with the age of the oldest waiting one, the rate-limit
 * refusals counted by this process, and what each module exports (AcademyModule.metrics: webhook
 * deliveries, notifications and integration messages by status, health checks' last status).
 */
/** What a module's manifest may contribute to the metrics (AcademyModule.metrics). */
export interface MetricsContributor {
  metrics?: (registry: Registry, platform: Platform) => void;
}

export function addPlatformMetrics(registry: Registry, platform: Platform, modules: readonly MetricsContributor[]): void {
  const jobs = createJobMetricsRepository(platform.database.db);

  scrapedGauge(registry, platform, {
    name: 'academy_jobs',
    help: 'Jobs in the queue by name and state (waiting: due or scheduled, not claimed; running: claimed; failed: given up).',
    labelNames: ['name', 'state'],
    async read(set) {
      for (const row of await jobs.countByNameAndState()) set({ name: row.name, state: row.state }, row.n);
    },
  });

  scrapedGauge(registry, platform, {
    name: 'academy_jobs_oldest_waiting_seconds',
    help: 'Age of the oldest due job that no worker has claimed yet, by name (0 when none waits).',
    labelNames: ['name'],
    async read(set) {
      const now = platform.clock.now();
      const rows = await jobs.oldestWaiting(now.toISOString());
      for (const row of rows) set({ name: row.name }, Math.max(0, (now.getTime() - Date.parse(row.oldest)) / 1000));
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

  for (const module of modules) module.metrics?.(registry, platform);
}
