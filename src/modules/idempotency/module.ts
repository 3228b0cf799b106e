import { createIdempotencyRepository } from '../../platform/idempotency/repository.ts';
import { createIdempotencyService, type IdempotencyService, IN_PROGRESS_LEASE_MS } from '../../platform/idempotency/service.ts';
import type { AcademyModule } from '../manifest.ts';

/** Idempotency keys of POST requests (the HTTP hooks are in src/http/idempotency.ts); expired ones are pruned. */
export const idempotencyModule = {
  name: 'idempotency',
  services: {
    idempotency: ({ platform }) =>
      createIdempotencyService({
        keys: createIdempotencyRepository(platform.database.db),
        clock: platform.clock,
        // A request still receiving its body (an upload, up to ACADEMY_REQUEST_TIMEOUT_MS) still holds its
        // key: only a reservation older than any live request can be taken over by a retry.
        leaseMs: Math.max(IN_PROGRESS_LEASE_MS, platform.config.requestTimeoutMs + 60_000),
      }),
  },
  tasks: {
    'idempotency.prune': async ({ services, now }) => ({ deleted: await services.idempotency.prune(now) }),
  },
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    idempotency: IdempotencyService;
  }
}
