import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB, WebhookDeliveryTable, WebhookEndpointTable } from '../../db/schema.ts';

export type EndpointRow = Selectable<WebhookEndpointTable>;
export type DeliveryRow = Selectable<WebhookDeliveryTable>;

export function createWebhookRepository(db: Kysely<DB>) {
  return {
    insertEndpoint: async (endpoint: Insertable<WebhookEndpointTable>): Promise<EndpointRow> =>
      db.insertInto('webhook_endpoints').values(endpoint).returningAll().executeTakeFirstOrThrow(),

    listEndpoints: async (): Promise<EndpointRow[]> => db.selectFrom('webhook_endpoints').selectAll().orderBy('id').execute(),

    findEndpoint: async (id: number, trx: Kysely<DB> = db): Promise<EndpointRow | undefined> =>
      trx.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst(),

    /** Deliveries go with their endpoint (ON DELETE CASCADE). */
    deleteEndpoint: async (id: number): Promise<boolean> => {
      const result = await db.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    disableEndpoint: async (trx: Kysely<DB>, id: number, reason: string, now: string): Promise<void> => {
      await trx
        .updateTable('webhook_endpoints')
        .set({ enabled: false, disabled_reason: reason, updated_at: now })
        .where('id', '=', id)
        .execute();
    },

    enabledEndpoints: async (trx: Kysely<DB>): Promise<EndpointRow[]> =>
      trx.selectFrom('webhook_endpoints').selectAll().where('enabled', '=', true).orderBy('id').execute(),

    /** Inserts a pending delivery; `undefined` when this endpoint already has one for the event. */
    insertDelivery: async (trx: Kysely<DB>, delivery: Insertable<WebhookDeliveryTable>): Promise<number | undefined> =>
      (
        await trx
          .insertInto('webhook_deliveries')
          .values(delivery)
          .onConflict((oc) => oc.columns(['endpoint_id', 'event_id']).doNothing())
          .returning('id')
          .executeTakeFirst()
      )?.id,

    findDelivery: async (id: number, trx: Kysely<DB> = db): Promise<DeliveryRow | undefined> =>
      trx.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst(),

    /** Records an attempt's outcome on a delivery that is still pending. */
    updateDelivery: async (trx: Kysely<DB>, id: number, changes: Updateable<WebhookDeliveryTable>): Promise<void> => {
      await trx.updateTable('webhook_deliveries').set(changes).where('id', '=', id).where('status', '=', 'pending').execute();
    },

    /** The most recent deliveries of an endpoint, newest first. */
    recentDeliveries: async (endpointId: number, limit: number): Promise<DeliveryRow[]> =>
      db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).orderBy('id', 'desc').limit(limit).execute(),
  };
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
