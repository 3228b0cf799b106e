import type { Kysely, Selectable } from 'kysely';
import { json } from '../../db/codec.ts';
import { type ListRequest, listPage, type Page } from '../../db/list.ts';
import type { AuditEventTable, DB } from '../../db/schema.ts';
import type { AuditActorType, AuditChanges } from '../../platform/audit.ts';
import type { AuditEvent, AuditSort } from './schemas.ts';

export interface AuditFilter {
  actorType?: AuditActorType | undefined;
  actorId?: number | undefined;
  action?: string | undefined;
  subjectType?: string | undefined;
  subjectId?: number | undefined;
  /** RFC 3339; only events at or after it. */
  since?: string | undefined;
}

/** Rows are written by the recorder (src/platform/audit.ts), in the transactions of the changes. */
const decode = (row: Selectable<AuditEventTable>): AuditEvent => ({
  ...row,
  actor_type: row.actor_type as AuditActorType,
  via: row.via as AuditEvent['via'],
  changes: json<AuditChanges>(row.changes),
});

export function createAuditRepository(db: Kysely<DB>) {
  return {
    list: async (filter: AuditFilter, list: ListRequest<AuditSort>): Promise<Page<AuditEvent>> => {
      let query = db.selectFrom('audit_events').selectAll();
      if (filter.actorType !== undefined) query = query.where('actor_type', '=', filter.actorType);
      if (filter.actorId !== undefined) query = query.where('actor_id', '=', filter.actorId);
      if (filter.action !== undefined) query = query.where('action', '=', filter.action);
      if (filter.subjectType !== undefined) query = query.where('subject_type', '=', filter.subjectType);
      if (filter.subjectId !== undefined) query = query.where('subject_id', '=', filter.subjectId);
      if (filter.since !== undefined) query = query.where('occurred_at', '>=', filter.since);
      // Events never change: `updated_since` reads as the time they were recorded.
      const page = await listPage(db, query, list, { sort: { id: 'id', occurred_at: 'occurred_at' }, updatedAt: 'occurred_at' });
      return { items: page.items.map(decode), total: page.total };
    },

    /** Deletes the events recorded before `before`; returns how many. */
    purge: async (before: string): Promise<number> => {
      const result = await db.deleteFrom('audit_events').where('occurred_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
