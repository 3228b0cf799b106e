import type { ListRequest, Page } from '../../db/list.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { requirePermission } from '../../platform/permissions.ts';
import type { AuditFilter, AuditRepository } from './repository.ts';
import type { AuditEvent, AuditSort } from './schemas.ts';

const DAY_MS = 86_400_000;

export function createAuditService(deps: { audit: AuditRepository; retentionDays: number }) {
  return {
    /**
     * The trail, filtered. Reading it needs `audit.read` when a user acts (a token for a user, the
     * console, `--as`); a token for nobody is bounded by its scope (`audit:read`), the operator by nothing.
     */
    async list(ctx: ServiceContext, filter: AuditFilter, list: ListRequest<AuditSort>): Promise<Page<AuditEvent>> {
      requirePermission(ctx, 'audit.read');
      return deps.audit.list(filter, list);
    },

    /** The daily task: deletes the events older than the retention (ACADEMY_AUDIT_RETENTION_DAYS). */
    async purge(ctx: ServiceContext): Promise<{ deleted: number; before: string }> {
      const before = new Date(ctx.clock.now().getTime() - deps.retentionDays * DAY_MS).toISOString();
      const deleted = await deps.audit.purge(before);
      if (deleted > 0) ctx.logger.info({ deleted, before }, 'audit events purged');
      return { deleted, before };
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
