import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB, IntegrationMessageTable, IntegrationTable } from '../../db/schema.ts';
import type { Page } from '../../http/pagination.ts';

export type IntegrationRow = Selectable<IntegrationTable>;
export type MessageRow = Selectable<IntegrationMessageTable>;

export interface MessageFilter {
  integrationKey?: string | undefined;
  status?: string | undefined;
}

export function createIntegrationRepository(db: Kysely<DB>) {
  return {
    insertIntegration: async (integration: Insertable<IntegrationTable>): Promise<IntegrationRow> =>
      db.insertInto('integrations').values(integration).returningAll().executeTakeFirstOrThrow(),

    findIntegrationByKey: async (key: string): Promise<IntegrationRow | undefined> =>
      db.selectFrom('integrations').selectAll().where('key', '=', key).executeTakeFirst(),

    findIntegration: async (id: number, trx: Kysely<DB> = db): Promise<IntegrationRow | undefined> =>
      trx.selectFrom('integrations').selectAll().where('id', '=', id).executeTakeFirst(),

    setIntegrationEnabled: async (key: string, enabled: boolean, now: string): Promise<IntegrationRow | undefined> =>
      db.updateTable('integrations').set({ enabled, updated_at: now }).where('key', '=', key).returningAll().executeTakeFirst(),

    listIntegrations: async (): Promise<IntegrationRow[]> => db.selectFrom('integrations').selectAll().orderBy('id').execute(),

    enabledIntegrations: async (trx: Kysely<DB>): Promise<IntegrationRow[]> =>
      trx.selectFrom('integrations').selectAll().where('enabled', '=', true).orderBy('id').execute(),

    /** Inserts a message; `undefined` when the integration has one for this event already (a re-run dispatch). */
    insertMessage: async (trx: Kysely<DB>, message: Insertable<IntegrationMessageTable>): Promise<number | undefined> =>
      (
        await trx
          .insertInto('integration_messages')
          .values(message)
          .onConflict((oc) => oc.columns(['integration_id', 'event_id']).doNothing())
          .returning('id')
          .executeTakeFirst()
      )?.id,

    findMessage: async (id: number, trx: Kysely<DB> = db): Promise<MessageRow | undefined> =>
      trx.selectFrom('integration_messages').selectAll().where('id', '=', id).executeTakeFirst(),

    /** Newest first. */
    listMessages: async (filter: MessageFilter, page: { offset: number; perPage: number }): Promise<Page<MessageRow>> => {
      let query = db.selectFrom('integration_messages');
      if (filter.integrationKey !== undefined) query = query.where('integration_key', '=', filter.integrationKey);
      if (filter.status !== undefined) query = query.where('status', '=', filter.status);
      const [items, count] = await Promise.all([
        query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.perPage).offset(page.offset).execute(),
        query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
      ]);
      return { items, total: Number(count.total) };
    },

    /** Moves a message from one of `from` to a new state; false when it was in none of them. */
    transition: async (
      trx: Kysely<DB>,
      id: number,
      from: readonly string[],
      changes: Updateable<IntegrationMessageTable>,
    ): Promise<boolean> => {
      const result = await trx
        .updateTable('integration_messages')
        .set(changes)
        .where('id', '=', id)
        .where('status', 'in', [...from])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type IntegrationRepository = ReturnType<typeof createIntegrationRepository>;
