import { registerEventDispatch } from '../modules/events/dispatch.ts';
import { registerIntegrationJobs } from '../modules/integrations/delivery.ts';
import { registerTaskJobs } from '../modules/tasks/jobs.ts';
import { registerWebhookJobs } from '../modules/webhooks/delivery.ts';
import type { Platform } from './platform.ts';

/**
 * Registers the handler of every job name (src/modules/jobs/names.ts). Each module contributes its
 * own; a worker refuses to start while one is missing.
 */
export function registerJobHandlers(platform: Platform): void {
  platform.registry.register('system.noop', {
    async handler(payload) {
      if (payload.sleepMs) await new Promise((resolve) => setTimeout(resolve, payload.sleepMs));
    },
  });
  registerEventDispatch(platform);
  registerWebhookJobs(platform);
  registerIntegrationJobs(platform);
  registerTaskJobs(platform);
}
