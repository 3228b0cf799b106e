import type { AcademyModule } from '../../platform/module.ts';
import { createIdempotencyRepository } from './repository.ts';
import { createIdempotencyService } from './service.ts';

/** Idempotency keys of POST requests (the HTTP hooks are in src/http/idempotency.ts); expired ones are pruned. */
export const idempotencyModule = {
  name: 'idempotency',
  tasks: {
    'idempotency.prune': async ({ platform, now }) => {
      const keys = createIdempotencyService({ keys: createIdempotencyRepository(platform.database.db), clock: platform.clock });
      return { deleted: await keys.prune(now) };
    },
  },
} satisfies AcademyModule;
