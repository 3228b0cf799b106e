import { outboundFor } from '../../platform/outbound.ts';
import type { AcademyModule } from '../manifest.ts';
import { adminWebhookCommands } from './admin.ts';
import { webhookCommands } from './cli.ts';
import { webhookJobs } from './delivery.ts';
import { webhookMetrics } from './metrics.ts';
import { createWebhookRepository } from './repository.ts';
import { createWebhookService, type WebhookService } from './service.ts';

/** Outbound webhooks (Standard Webhooks): endpoints managed with `academy webhooks`, delivery jobs. */
export const webhooksModule = {
  name: 'webhooks',
  services: {
    webhooks: ({ platform }) =>
      createWebhookService({
        db: platform.database.db,
        webhooks: createWebhookRepository(platform.database.db),
        events: platform.events,
        queue: platform.queue,
        outbound: outboundFor(platform.config),
        secrets: platform.secrets,
      }),
  },
  jobs: ({ platform }) => webhookJobs(platform),
  commands: webhookCommands,
  admin: adminWebhookCommands,
  metrics: webhookMetrics,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    webhooks: WebhookService;
  }
}

declare module '../../platform/jobs/names.ts' {
  interface JobPayloads {
    /** One attempt to deliver an event to one webhook endpoint. */
    'webhooks.deliver': {
      deliveryId: number;
      /** Attempts the delivery had made before this job (a redelivery's), so its count goes on. */
      attemptsBefore?: number;
    };
  }
}
