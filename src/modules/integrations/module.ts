import { outboundFor } from '../../platform/outbound.ts';
import type { AcademyModule } from '../manifest.ts';
import { adminIntegrationCommands } from './admin.ts';
import { integrationJobs } from './delivery.ts';
import { examples } from './examples.ts';
import { integrationMetrics } from './metrics.ts';
import { createIntegrationRepository } from './repository.ts';
import { integrationRoutes } from './routes.ts';
import { createIntegrationService, type IntegrationService } from './service.ts';

/** Outbound integrations: their messages (API), delivery jobs and administration. */
export const integrationsModule = {
  name: 'integrations',
  services: {
    integrations: ({ platform }) =>
      createIntegrationService({
        db: platform.database.db,
        integrations: createIntegrationRepository(platform.database.db),
        queue: platform.queue,
        outbound: outboundFor(platform.config),
        secrets: platform.secrets,
      }),
  },
  routes:
    ({ platform, services }) =>
    async (app) => {
      await app.register(integrationRoutes, { integrations: services.integrations, maxPageSize: platform.config.maxPageSize });
    },
  jobs: ({ platform }) => integrationJobs(platform),
  admin: adminIntegrationCommands,
  metrics: integrationMetrics,
  examples,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    integrations: IntegrationService;
  }
}

declare module '../../platform/jobs/names.ts' {
  interface JobPayloads {
    /** One attempt to deliver an integration message. */
    'integrations.deliver': { messageId: number };
  }
}
