import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { bool, json } from '../../db/codec.ts';
import type { DB, WebhookDeliveryTable, WebhookEndpointTable } from '../../db/schema.ts';

/** An endpoint as stored, decoded once here (booleans and JSON), the same on both databases. */
export type EndpointRow = Omit<Selectable<WebhookEndpointTable>, 'enabled' | 'events'> & { enabled: boolean; events: string[] | null };
const endpoint = (row: Selectable<WebhookEndpointTable>): EndpointRow => ({
  ...row,
  enabled: bool(row.enabled),
  events: json<string[]>(row.events),
});
export type DeliveryRow = Selectable<WebhookDeliveryTable>;

export function createWebhookRepository(db: Kysely<DB>) {
  return {
    /** `also` runs in the insert's transaction with the new endpoint (its audit event). */
    insertEndpoint: async (
      values: Insertable<WebhookEndpointTable>,
      also?: (trx: Kysely<DB>, row: EndpointRow) => Promise<void>,
    ): Promise<EndpointRow> =>
      db.transaction().execute(async (trx) => {
        const row = endpoint(await trx.insertInto('webhook_endpoints').values(values).returningAll().executeTakeFirstOrThrow());
        await also?.(trx, row);
        return row;
      }),

    listEndpoints: async (): Promise<EndpointRow[]> =>
      (await db.selectFrom('webhook_endpoints').selectAll().orderBy('id').execute()).map(endpoint),

    findEndpoint: async (id: number, trx: Kysely<DB> = db): Promise<EndpointRow | undefined> => {
      const row = await trx.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
      return row && endpoint(row);
    },

    /** Deliveries go with their endpoint (ON DELETE CASCADE). */
    deleteEndpoint: async (id: number, also?: (trx: Kysely<DB>) => Promise<void>): Promise<boolean> =>
      db.transaction().execute(async (trx) => {
        const result = await trx.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
        const deleted = Number(result.numDeletedRows) > 0;
        if (deleted) await also?.(trx);
        return deleted;
      }),

    disableEndpoint: async (trx: Kysely<DB>, id: number, reason: string, now: string): Promise<void> => {
      await trx
        .updateTable('webhook_endpoints')
        .set({ enabled: false, disabled_reason: reason, updated_at: now })
        .where('id', '=', id)
        .execute();
    },

    enabledEndpoints: async (trx: Kysely<DB>): Promise<EndpointRow[]> =>
      (await trx.selectFrom('webhook_endpoints').selectAll().where('enabled', '=', true).orderBy('id').execute()).map(endpoint),

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

    /** The most recent deliveries of an endpoint, newest first. */
    recentDeliveries: async (endpointId: number, limit: number): Promise<DeliveryRow[]> =>
      db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).orderBy('id', 'desc').limit(limit).execute(),

    /** How many deliveries there are in each status (the metrics). */
    countDeliveriesByStatus: async (): Promise<{ status: string; n: number }[]> =>
      (
        await db
          .selectFrom('webhook_deliveries')
          .select(['status', sql<number | string>`count(*)`.as('n')])
          .groupBy('status')
          .execute()
      ).map((row) => ({ status: row.status, n: Number(row.n) })),
  };
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
