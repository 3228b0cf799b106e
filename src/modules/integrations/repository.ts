import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { bool, json } from '../../db/codec.ts';
import { type ListRequest, listPage, type Page } from '../../db/list.ts';
import type { DB, IntegrationMessageTable, IntegrationTable } from '../../db/schema.ts';
import type { DomainEvent } from '../../platform/events/outbox.ts';
import type { MessageSort, MessageStatus } from './schemas.ts';

/** Rows as stored, decoded once here (booleans and JSON), the same on both databases. */
export type IntegrationRow = Omit<Selectable<IntegrationTable>, 'enabled' | 'events'> & { enabled: boolean; events: string[] | null };
export type MessageRow = Omit<Selectable<IntegrationMessageTable>, 'payload' | 'status'> & { payload: DomainEvent; status: MessageStatus };

const integration = (row: Selectable<IntegrationTable>): IntegrationRow => ({
  ...row,
  enabled: bool(row.enabled),
  events: json<string[]>(row.events),
});
const message = (row: Selectable<IntegrationMessageTable>): MessageRow => ({
  ...row,
  payload: json<DomainEvent>(row.payload),
  status: row.status as MessageStatus,
});

export interface MessageFilter {
  integrationKey?: string | undefined;
  status?: MessageStatus | undefined;
}

export function createIntegrationRepository(db: Kysely<DB>) {
  return {
    /** `also` runs in the insert's transaction with the new integration (its audit event). */
    insertIntegration: async (
      values: Insertable<IntegrationTable>,
      also?: (trx: Kysely<DB>, row: IntegrationRow) => Promise<void>,
    ): Promise<IntegrationRow> =>
      db.transaction().execute(async (trx) => {
        const row = integration(await trx.insertInto('integrations').values(values).returningAll().executeTakeFirstOrThrow());
        await also?.(trx, row);
        return row;
      }),

    findIntegrationByKey: async (key: string): Promise<IntegrationRow | undefined> => {
      const row = await db.selectFrom('integrations').selectAll().where('key', '=', key).executeTakeFirst();
      return row && integration(row);
    },

    findIntegration: async (id: number, trx: Kysely<DB> = db): Promise<IntegrationRow | undefined> => {
      const row = await trx.selectFrom('integrations').selectAll().where('id', '=', id).executeTakeFirst();
      return row && integration(row);
    },

    /** `also` runs in the update's transaction with the integration before and after (its audit event). */
    setIntegrationEnabled: async (
      key: string,
      enabled: boolean,
      now: string,
      also?: (trx: Kysely<DB>, before: IntegrationRow, after: IntegrationRow) => Promise<void>,
    ): Promise<IntegrationRow | undefined> =>
      db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('integrations').selectAll().where('key', '=', key).executeTakeFirst();
        if (!before) return undefined;
        const row = await trx
          .updateTable('integrations')
          .set({ enabled, updated_at: now })
          .where('key', '=', key)
          .returningAll()
          .executeTakeFirst();
        if (!row) return undefined;
        await also?.(trx, integration(before), integration(row));
        return integration(row);
      }),

    listIntegrations: async (): Promise<IntegrationRow[]> =>
      (await db.selectFrom('integrations').selectAll().orderBy('id').execute()).map(integration),

    enabledIntegrations: async (trx: Kysely<DB>): Promise<IntegrationRow[]> =>
      (await trx.selectFrom('integrations').selectAll().where('enabled', '=', true).orderBy('id').execute()).map(integration),

    /** Inserts a message; `undefined` when the integration has one for this event already (a re-run dispatch). */
    insertMessage: async (trx: Kysely<DB>, values: Insertable<IntegrationMessageTable>): Promise<number | undefined> =>
      (
        await trx
          .insertInto('integration_messages')
          .values(values)
          .onConflict((oc) => oc.columns(['integration_id', 'event_id']).doNothing())
          .returning('id')
          .executeTakeFirst()
      )?.id,

    findMessage: async (id: number, trx: Kysely<DB> = db): Promise<MessageRow | undefined> => {
      const row = await trx.selectFrom('integration_messages').selectAll().where('id', '=', id).executeTakeFirst();
      return row && message(row);
    },

    listMessages: async (filter: MessageFilter, list: ListRequest<MessageSort>): Promise<Page<MessageRow>> => {
      let query = db.selectFrom('integration_messages').selectAll();
      if (filter.integrationKey !== undefined) query = query.where('integration_key', '=', filter.integrationKey);
      if (filter.status !== undefined) query = query.where('status', '=', filter.status);
      const page = await listPage(db, query, list, { sort: { created_at: 'created_at', id: 'id' } });
      return { items: page.items.map(message), total: page.total };
    },

    /** How many messages there are in each status (the metrics). */
    countMessagesByStatus: async (): Promise<{ status: string; n: number }[]> =>
      (
        await db
          .selectFrom('integration_messages')
          .select(['status', sql<number | string>`count(*)`.as('n')])
          .groupBy('status')
          .execute()
      ).map((row) => ({ status: row.status, n: Number(row.n) })),
  };
}

export type IntegrationRepository = ReturnType<typeof createIntegrationRepository>;
