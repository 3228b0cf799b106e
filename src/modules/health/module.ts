import { systemContext } from '../../platform/context.ts';
import type { AcademyModule } from '../manifest.ts';
import { examples } from './examples.ts';
import { healthMetrics } from './metrics.ts';
import { createHealthRepository, SCHEDULER_HEARTBEAT_KEY } from './repository.ts';
import { healthRoutes } from './routes.ts';
import { createHealthService, type HealthService } from './service.ts';

/** Health checks: the API, and the periodic run that raises `alert.sent` when the status worsens. */
export const healthModule = {
  name: 'health',
  services: {
    health: ({ platform }) => {
      const repository = createHealthRepository(platform.database.db);
      return createHealthService({
        repository,
        database: platform.database,
        outbox: platform.outbox,
        logger: platform.logger,
        dependencies: platform.dependencies,
        checks: {
          database: platform.database,
          redis: platform.redis,
          mailer: platform.mail,
          storage: platform.storage,
          jobs: platform.jobs,
          clock: platform.clock,
          dataDir: platform.config.dataDir,
          schedulerHeartbeat: () => repository.stateValue(SCHEDULER_HEARTBEAT_KEY),
        },
      });
    },
  },
  routes:
    ({ services }) =>
    async (app) => {
      await app.register(healthRoutes, { health: services.health });
    },
  tasks: {
    'health.run_checks': async ({ platform, services, logger }) => {
      const ctx = systemContext({ clock: platform.clock, logger });
      const { report, previous, alerted } = await services.health.runAndAlert(ctx);
      return { status: report.status, previous: previous ?? null, alerted };
    },
  },
  metrics: healthMetrics,
  examples,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    health: HealthService;
  }
}
