import type { DatabaseConnection, Kysely, Selectable } from 'kysely';
import type { DB, IdempotencyKeyTable } from '../../db/schema.ts';

export type IdempotencyKeyRow = Selectable<IdempotencyKeyTable>;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function createIdempotencyRepository(db: Kysely<DB>) {
  /** A request that committed changes but whose response was lost: its key is not run again. */
  const markUnanswered = async (id: number): Promise<void> => {
    await db.updateTable('idempotency_keys').set({ state: 'unanswered' }).where('id', '=', id).where('state', '=', 'in_progress').execute();
  };

  return {
    find: async (tokenId: number, key: string): Promise<IdempotencyKeyRow | undefined> =>
      db.selectFrom('idempotency_keys').selectAll().where('token_id', '=', tokenId).where('key', '=', key).executeTakeFirst(),

    /** Reserves the key; `undefined` when another request holds it already (unique token_id, key). */
    reserve: async (row: { token_id: number; key: string; request_hash: string; created_at: string; expires_at: string }) =>
      (
        await db
          .insertInto('idempotency_keys')
          .values({ ...row, state: 'in_progress' })
          .onConflict((oc) => oc.columns(['token_id', 'key']).doNothing())
          .returning('id')
          .executeTakeFirst()
      )?.id,

    complete: async (id: number, response: StoredResponse, bodyDigest?: string): Promise<void> => {
      await db
        .updateTable('idempotency_keys')
        .set({
          ...(bodyDigest === undefined ? {} : { body_digest: bodyDigest }),
          state: 'completed',
          response_status: response.status,
          response_headers: JSON.stringify(response.headers),
          response_body: response.body,
        })
        .where('id', '=', id)
        .where('state', '=', 'in_progress')
        .execute();
    },

    /**
     * Notes, on the connection of a transaction about to commit, that the key's request has changed
     * something: it commits with those changes or not at all.
     */
    markCommitted: async (connection: DatabaseConnection, id: number, at: string): Promise<void> => {
      await connection.executeQuery(
        db
          .updateTable('idempotency_keys')
          .set({ committed_at: at })
          .where('id', '=', id)
          .where('state', '=', 'in_progress')
          .where('committed_at', 'is', null)
          .compile(),
      );
    },

    markUnanswered,

    /** Deletes the row as it was read (same id and state), so a row that moved on meanwhile is kept. */
    remove: async (row: Pick<IdempotencyKeyRow, 'id' | 'state' | 'committed_at'>): Promise<void> => {
      await db
        .deleteFrom('idempotency_keys')
        .where('id', '=', row.id)
        .where('state', '=', row.state)
        .where('committed_at', row.committed_at === null ? 'is' : '=', row.committed_at)
        .execute();
    },

    /**
     * After a failure: deletes the key if its request committed nothing, so that a retry runs it; a
     * key whose request committed changes (its note says so, also when the commit's acknowledgement
     * was lost) becomes `unanswered` instead.
     */
    release: async (id: number): Promise<void> => {
      const freed = await db
        .deleteFrom('idempotency_keys')
        .where('id', '=', id)
        .where('state', '=', 'in_progress')
        .where('committed_at', 'is', null)
        .executeTakeFirst();
      if (Number(freed.numDeletedRows) === 0) await markUnanswered(id);
    },

    deleteExpired: async (now: string): Promise<number> => {
      const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type IdempotencyRepository = ReturnType<typeof createIdempotencyRepository>;
