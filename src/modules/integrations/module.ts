import type { AcademyModule } from '../../platform/module.ts';
import { adminIntegrationCommands } from './admin.ts';
import { integrationJobs } from './delivery.ts';
import { examples } from './examples.ts';
import { integrationMetrics } from './metrics.ts';
import { integrationRoutes } from './routes.ts';
import { integrationServiceFor } from './service.ts';

/** Outbound integrations: their messages (API), delivery jobs and administration. */
export const integrationsModule = {
  name: 'integrations',
  routes:
    ({ platform }) =>
    async (app) => {
      await app.register(integrationRoutes, { integrations: integrationServiceFor(platform), maxPageSize: platform.config.maxPageSize });
    },
  jobs: ({ platform }) => integrationJobs(platform),
  admin: adminIntegrationCommands,
  metrics: integrationMetrics,
  examples,
} satisfies AcademyModule;

declare module '../../platform/jobs/names.ts' {
  interface JobPayloads {
    /** One attempt to deliver an integration message. */
    'integrations.deliver': { messageId: number };
  }
}
