import { PermanentJobError } from '../modules/jobs/registry.ts';
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
  // TEMPORARY during assembly: each line below is replaced by its module's registration.
  const pending = async () => {
    throw new PermanentJobError('handler not wired yet');
  };
  platform.registry.register('events.dispatch', { handler: pending }); // webhooks + integrations module
  platform.registry.register('webhooks.deliver', { handler: pending }); // webhooks module
  platform.registry.register('integrations.deliver', { handler: pending }); // integrations module
  platform.registry.register('tasks.run', { handler: pending }); // tasks module
}
