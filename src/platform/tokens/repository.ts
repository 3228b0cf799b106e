import type { Kysely, Selectable } from 'kysely';
import { prepare } from '../../db/prepared.ts';
import type { ApiTokenTable, DB } from '../../db/schema.ts';
import type { ChangeFeed } from '../changes.ts';

export type TokenRow = Selectable<ApiTokenTable>;
/** A token with the lifecycle status of the user it acts for (null without one). */
export type AuthTokenRow = TokenRow & {
  user_status: string | null;
  user_roles: string | null;
  user_permissions: string | null;
  user_name: string | null;
};

export interface NewToken {
  name: string;
  token_hash: string;
  token_prefix: string;
  scopes: string;
  user_id: number | null;
  expires_at: string | null;
  created_at: string;
}

/** What a change also writes in its transaction, given the row it wrote (the audit event). */
export type Also = (trx: Kysely<DB>, row: TokenRow) => Promise<void>;

export function createTokenRepository(db: Kysely<DB>, changes: ChangeFeed) {
  // Runs on every authenticated request.
  const byHash = prepare(
    db,
    db
      .selectFrom('api_tokens')
      .leftJoin('users', 'users.id', 'api_tokens.user_id')
      .selectAll('api_tokens')
      .select([
        'users.status as user_status',
        'users.roles as user_roles',
        'users.permissions as user_permissions',
        'users.name as user_name',
      ])
      .where('api_tokens.token_hash', '=', ''),
  );
  return {
    /** `also` runs in the insert's transaction with the new row (its audit event). */
    insert: async (token: NewToken, also?: Also): Promise<TokenRow> =>
      db.transaction().execute(async (trx) => {
        const row = await trx.insertInto('api_tokens').values(token).returningAll().executeTakeFirstOrThrow();
        await also?.(trx, row);
        return row;
      }),

    findByHash: async (hash: string): Promise<AuthTokenRow | undefined> => (await byHash(hash))[0],

    findById: async (id: number): Promise<TokenRow | undefined> =>
      db.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirst(),

    list: async (): Promise<TokenRow[]> => db.selectFrom('api_tokens').selectAll().orderBy('id').execute(),

    // Changes that affect authentication tell every process's token cache (ChangeFeed).
    /** `also` runs in the revocation's transaction when it revoked the token (not when it was revoked already). */
    revoke: async (id: number, at: string, also?: Also): Promise<void> => {
      await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('api_tokens')
          .set({ revoked_at: at })
          .where('id', '=', id)
          .where('revoked_at', 'is', null)
          .returningAll()
          .executeTakeFirst();
        await changes.announce(trx);
        if (row) await also?.(trx, row);
      });
    },

    /**
     * Replaces a live token by a new one in one transaction: both exist, or neither does. `undefined`
     * when the old token was revoked (or rotated) meanwhile.
     */
    rotate: async (id: number, replacement: NewToken, also?: Also): Promise<TokenRow | undefined> =>
      db.transaction().execute(async (trx) => {
        const retired = await trx
          .updateTable('api_tokens')
          .set({ revoked_at: replacement.created_at })
          .where('id', '=', id)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        if (Number(retired.numUpdatedRows) === 0) return undefined;
        const row = await trx.insertInto('api_tokens').values(replacement).returningAll().executeTakeFirstOrThrow();
        await trx.updateTable('api_tokens').set({ rotated_to_id: row.id }).where('id', '=', id).execute();
        await changes.announce(trx);
        await also?.(trx, row);
        return row;
      }),

    setScopes: async (id: number, scopes: string, also?: Also): Promise<void> => {
      await db.transaction().execute(async (trx) => {
        const row = await trx.updateTable('api_tokens').set({ scopes }).where('id', '=', id).returningAll().executeTakeFirst();
        await changes.announce(trx);
        if (row) await also?.(trx, row);
      });
    },

    /** Writes batched `last_used_at` values; never moves a value backwards. */
    touch: async (usage: Map<number, string>): Promise<void> => {
      for (const [id, at] of usage) {
        await db
          .updateTable('api_tokens')
          .set({ last_used_at: at })
          .where('id', '=', id)
          .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
          .execute();
      }
    },

    findUserIdByEmail: async (email: string): Promise<number | undefined> =>
      (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst())?.id,
  };
}

export type TokenRepository = ReturnType<typeof createTokenRepository>;
