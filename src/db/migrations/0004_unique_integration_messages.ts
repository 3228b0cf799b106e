import type { Kysely } from 'kysely';

/**
 * One message per integration and event: two dispatches of the same event (a job run again after its
 * worker's lease expired while the first still ran) must not deliver it twice.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('integration_messages_integration_event')
    .on('integration_messages')
    .columns(['integration_id', 'event_id'])
    .unique()
    .execute();
}
