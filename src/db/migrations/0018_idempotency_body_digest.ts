import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

// The digest of an upload's content (fields and the file's SHA-256), recorded with its Idempotency-Key
// once the upload has been read: a repeat under the same key is replayed only with the same content
// (src/http/idempotency.ts). Null for every other request, whose body is in `request_hash`.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('body_digest', 'text').execute();
}
