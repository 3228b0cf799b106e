import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { DB, UserInvitationTable } from '../../db/schema.ts';

/**
 * Invitation acceptance tokens: 32 random bytes in base64url (256 bits), made when the invitation
 * email is sent and shown only in it. Only their SHA-256 is stored, so the database (or a backup of
 * it) cannot be used to accept an invitation. A token works once and until it expires.
 */
export const INVITATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newInvitationToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashInvitationToken(token) };
}

/** The acceptance link: the configured page with the token added to its query. */
export function invitationLink(base: string, token: string): string {
  const url = new URL(base);
  url.searchParams.set('token', token);
  return url.toString();
}

export type InvitationRow = Selectable<UserInvitationTable>;

export function createInvitationRepository(db: Kysely<DB>) {
  return {
    /**
     * Stores the hash of the token that the invitation email `notificationId` is about to carry. A
     * new attempt to send it replaces the token of the last one, whose email never arrived.
     */
    issue: async (values: { userId: number; notificationId: number; hash: string; expiresAt: string; now: string }): Promise<void> => {
      await db
        .insertInto('user_invitations')
        .values({
          user_id: values.userId,
          notification_id: values.notificationId,
          token_hash: values.hash,
          expires_at: values.expiresAt,
          used_at: null,
          created_at: values.now,
          updated_at: values.now,
        })
        .onConflict((oc) =>
          oc.column('notification_id').doUpdateSet({ token_hash: values.hash, expires_at: values.expiresAt, updated_at: values.now }),
        )
        .execute();
    },

    /** The invitation whose token hashes to `hash`, compared in constant time after the index lookup. */
    findByHash: async (trx: Kysely<DB>, hash: string): Promise<InvitationRow | undefined> => {
      const row = await trx.selectFrom('user_invitations').selectAll().where('token_hash', '=', hash).executeTakeFirst();
      if (!row || !timingSafeEqual(Buffer.from(row.token_hash), Buffer.from(hash))) return undefined;
      return row;
    },

    /** Uses up an invitation; false when it was used meanwhile (a second acceptance of the same link). */
    use: async (trx: Kysely<DB>, id: number, now: string): Promise<boolean> => {
      const result = await trx
        .updateTable('user_invitations')
        .set({ used_at: now, updated_at: now })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Closes every open invitation of a user (activated by the administration, or archived). */
    closeFor: async (trx: Kysely<DB>, userId: number, now: string): Promise<void> => {
      await trx
        .updateTable('user_invitations')
        .set({ used_at: now, updated_at: now })
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .execute();
    },
  };
}

export type InvitationRepository = ReturnType<typeof createInvitationRepository>;
