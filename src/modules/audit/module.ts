import { fixedClock } from '../../platform/clock.ts';
import { systemContext } from '../../platform/context.ts';
import type { AcademyModule } from '../manifest.ts';
import { adminAuditCommands } from './admin.ts';
import { examples } from './examples.ts';
import { createAuditRepository } from './repository.ts';
import { auditRoutes } from './routes.ts';
import { type AuditService, createAuditService } from './service.ts';

/**
 * The audit trail: read over the API and with `academy admin audit list`, and purged daily. Events are
 * written by every service's changes, in their transactions, through the platform's recorder
 * (src/platform/audit.ts); this module only reads and purges them.
 */
export const auditModule = {
  name: 'audit',
  services: {
    audit: ({ platform }) =>
      createAuditService({ audit: createAuditRepository(platform.database.db), retentionDays: platform.config.auditRetentionDays }),
  },
  routes:
    ({ platform, services }) =>
    async (app) => {
      await app.register(auditRoutes, { audit: services.audit, maxPageSize: platform.config.maxPageSize });
    },
  tasks: {
    'audit.purge': async ({ services, now, logger }) => services.audit.purge(systemContext({ clock: fixedClock(now), logger })),
  },
  admin: adminAuditCommands,
  examples,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    audit: AuditService;
  }
}
