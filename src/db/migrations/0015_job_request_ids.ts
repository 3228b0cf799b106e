import type { Kysely } from 'kysely';

// The request (or the job) a job was queued by, so that its logs and the deliveries it makes can be
// followed back to the request that started the work.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('request_id', 'text').execute();
}
