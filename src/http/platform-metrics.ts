import { Counter, Gauge, type Registry } from 'prom-client';
import { commitOf, PRODUCT_VERSION } from '../platform/build.ts';
import { createJobMetricsRepository } from '../platform/jobs/metrics-repository.ts';
import { scrapedGauge } from '../platform/metrics.ts';
import type { Platform } from '../platform/platform.ts';
import { rateLimitRefusals } from './rate-limit.ts';

/**
 * The metrics of the background work and of the modules, read when Prometheus scrapes (nothing on
 * the request path): jobs by name and state with the age of the oldest waiting one, the rate-limit
 * refusals counted by this process, the build, the database pool, and what each module exports (AcademyModule.metrics: webhook
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

  new Counter({
    name: 'academy_rate_limited_requests_total',
    help: 'Requests this process refused with a 429, by policy, since it started.',
    labelNames: ['policy'],
    registers: [registry],
    collect() {
      // The refusals are counted where they happen (src/http/rate-limit.ts); the counter shows them.
      this.reset();
      for (const [policy, count] of rateLimitRefusals) this.inc({ policy }, count);
    },
  });

  new Gauge({
    name: 'academy_build_info',
    help: 'The running build: its version, commit and Node.js version (always 1).',
    labelNames: ['version', 'commit', 'node'],
    registers: [registry],
  }).set({ version: PRODUCT_VERSION, commit: commitOf() ?? 'unknown', node: process.version }, 1);

  if (platform.database.poolStats()) {
    new Gauge({
      name: 'academy_db_pool_connections',
      help: "The database pool's connections, by state (in_use: lent to a request or job; idle: open, free).",
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const stats = platform.database.poolStats();
        if (!stats) return;
        this.set({ state: 'in_use' }, stats.inUse);
        this.set({ state: 'idle' }, stats.idle);
      },
    });
    new Gauge({
      name: 'academy_db_pool_waiting',
      help: 'Requests and jobs waiting for a connection of the database pool.',
      registers: [registry],
      collect() {
        this.set(platform.database.poolStats()?.waiting ?? 0);
      },
    });
  }

  for (const module of modules) module.metrics?.(registry, platform);
}
