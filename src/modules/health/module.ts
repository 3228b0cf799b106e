import { systemContext } from '../../platform/context.ts';
import type { AcademyModule } from '../../platform/module.ts';
import { examples } from './examples.ts';
import { healthMetrics } from './metrics.ts';
import { healthRoutes } from './routes.ts';
import { healthServiceFor } from './service.ts';

/** Health checks: the API, and the periodic run that raises `alert.sent` when the status worsens. */
export const healthModule = {
  name: 'health',
  routes:
    ({ platform }) =>
    async (app) => {
      await app.register(healthRoutes, { health: healthServiceFor(platform) });
    },
  tasks: {
    'health.run_checks': async ({ platform, logger }) => {
      const ctx = systemContext({ clock: platform.clock, logger });
      const { report, previous, alerted } = await healthServiceFor(platform).runAndAlert(ctx);
      return { status: report.status, previous: previous ?? null, alerted };
    },
  },
  metrics: healthMetrics,
  examples,
} satisfies AcademyModule;
