import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { columns } from './columns.ts';

// When the request that holds an Idempotency-Key committed its changes, written in the same commit
// (src/http/idempotency.ts): a key left `in_progress` by a process that stopped is then known to
// have been carried out, and a retry is not run a second time. Null while nothing was committed.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('committed_at', columns(dialect).timestamp).execute();
}
