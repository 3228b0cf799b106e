import type { Kysely, Selectable } from 'kysely';
import { json } from '../../db/codec.ts';
import type { DB, PasskeyTable, StaffSessionTable } from '../../db/schema.ts';
import { effectivePermissions, type Permission } from '../../platform/permissions.ts';

export type SessionRow = Selectable<StaffSessionTable>;
export type PasskeyRow = Selectable<PasskeyTable>;

/** A staff user as sign-in needs one: who, their state, their password hash and what they may do. */
export interface Credentials {
  id: number;
  name: string;
  email: string;
  status: string;
  passwordHash: string | null;
  permissions: Permission[];
}

/** A live session with its user, as a request finds it by the hash of its cookie. */
export interface SessionWithUser {
  session: SessionRow;
  user: Credentials;
}

const USER_COLUMNS = [
  'users.id',
  'users.name',
  'users.email',
  'users.status',
  'users.password_hash',
  'users.roles',
  'users.permissions',
] as const;

function credentials(row: {
  id: number;
  name: string;
  email: string;
  status: string;
  password_hash: string | null;
  roles: string;
  permissions: string;
}): Credentials {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    status: row.status,
    passwordHash: row.password_hash,
    permissions: effectivePermissions(json<string[]>(row.roles), json<string[]>(row.permissions)),
  };
}

/** Staff sessions, password resets and failed sign-ins. Ids and tokens are stored as hashes only. */
export function createStaffAuthRepository(db: Kysely<DB>) {
  return {
    /** The staff user with this (normalised) email; students never sign in here. */
    findStaffByEmail: async (email: string): Promise<Credentials | undefined> => {
      const row = await db
        .selectFrom('users')
        .select(USER_COLUMNS)
        .where('email', '=', email)
        .where('is_admin', '=', true)
        .executeTakeFirst();
      return row && credentials(row);
    },

    findStaff: async (id: number, executor: Kysely<DB> = db): Promise<Credentials | undefined> => {
      const row = await executor
        .selectFrom('users')
        .select(USER_COLUMNS)
        .where('id', '=', id)
        .where('is_admin', '=', true)
        .executeTakeFirst();
      return row && credentials(row);
    },

    setPassword: async (executor: Kysely<DB>, userId: number, hash: string, now: string): Promise<void> => {
      await executor
        .updateTable('users')
        .set({ password_hash: hash, password_changed_at: now, updated_at: now })
        .where('id', '=', userId)
        .where('is_admin', '=', true)
        .execute();
    },

    /** The same password hashed anew (stronger parameters): not a change of the password. */
    rehash: async (userId: number, hash: string): Promise<void> => {
      await db.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).where('is_admin', '=', true).execute();
    },

    insertSession: async (
      executor: Kysely<DB>,
      values: {
        userId: number;
        idHash: string;
        method: string;
        now: string;
        expiresAt: string;
        ip: string | null;
        userAgent: string | null;
      },
    ): Promise<SessionRow> =>
      executor
        .insertInto('staff_sessions')
        .values({
          user_id: values.userId,
          id_hash: values.idHash,
          method: values.method,
          created_at: values.now,
          last_seen_at: values.now,
          expires_at: values.expiresAt,
          ip: values.ip,
          user_agent: values.userAgent,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),

    /** The session whose id hashes to `idHash`, with its user, whatever its state (the service decides). */
    findSession: async (idHash: string): Promise<SessionWithUser | undefined> => {
      const row = await db
        .selectFrom('staff_sessions')
        .innerJoin('users', 'users.id', 'staff_sessions.user_id')
        .selectAll('staff_sessions')
        .select(['users.name', 'users.email', 'users.status', 'users.password_hash', 'users.roles', 'users.permissions'])
        .where('staff_sessions.id_hash', '=', idHash)
        .executeTakeFirst();
      if (!row) return undefined;
      const { name, email, status, password_hash, roles, permissions, ...session } = row;
      return { session, user: credentials({ id: session.user_id, name, email, status, password_hash, roles, permissions }) };
    },

    touchSession: async (id: number, now: string): Promise<void> => {
      await db.updateTable('staff_sessions').set({ last_seen_at: now }).where('id', '=', id).where('ended_at', 'is', null).execute();
    },

    /** The user's sessions not ended, newest first. */
    openSessions: async (userId: number): Promise<SessionRow[]> =>
      db
        .selectFrom('staff_sessions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('ended_at', 'is', null)
        .orderBy('id', 'desc')
        .execute(),

    /** Ends one session of a user; false when it is not theirs or ended already. */
    endSession: async (executor: Kysely<DB>, userId: number, id: number, reason: string, now: string): Promise<boolean> => {
      const result = await executor
        .updateTable('staff_sessions')
        .set({ ended_at: now, ended_reason: reason })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('ended_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Ends every session of a user (but `except`); how many were ended. */
    endSessions: async (executor: Kysely<DB>, userId: number, reason: string, now: string, except?: number): Promise<number> => {
      let query = executor
        .updateTable('staff_sessions')
        .set({ ended_at: now, ended_reason: reason })
        .where('user_id', '=', userId)
        .where('ended_at', 'is', null);
      if (except !== undefined) query = query.where('id', '<>', except);
      return Number((await query.executeTakeFirst()).numUpdatedRows);
    },

    recordFailure: async (executor: Kysely<DB>, email: string, at: string): Promise<void> => {
      await executor.insertInto('sign_in_failures').values({ email, at }).execute();
    },

    /** The failed sign-ins for `email` since `since`, oldest first (at most `limit`). */
    failuresSince: async (email: string, since: string, limit: number): Promise<string[]> =>
      (
        await db
          .selectFrom('sign_in_failures')
          .select('at')
          .where('email', '=', email)
          .where('at', '>', since)
          .orderBy('at', 'desc')
          .limit(limit)
          .execute()
      )
        .map((row) => row.at)
        .reverse(),

    clearFailures: async (email: string): Promise<void> => {
      await db.deleteFrom('sign_in_failures').where('email', '=', email).execute();
    },

    /** Forgets failures older than `before` (they no longer count). */
    purgeFailures: async (executor: Kysely<DB>, before: string): Promise<number> =>
      Number((await executor.deleteFrom('sign_in_failures').where('at', '<', before).executeTakeFirst()).numDeletedRows),

    insertReset: async (values: {
      userId: number;
      notificationId: number | null;
      tokenHash: string;
      now: string;
      expiresAt: string;
    }): Promise<void> => {
      await db
        .insertInto('password_resets')
        .values({
          user_id: values.userId,
          notification_id: values.notificationId,
          token_hash: values.tokenHash,
          created_at: values.now,
          expires_at: values.expiresAt,
        })
        .execute();
    },

    /** The reset link with this token hash, if it is unused and not expired at `now`. */
    findUsableReset: async (tokenHash: string, now: string) =>
      db
        .selectFrom('password_resets')
        .select(['id', 'user_id'])
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst(),

    /** Uses a reset link up, once: false when another request used it first. */
    useReset: async (executor: Kysely<DB>, id: number, now: string): Promise<boolean> => {
      const result = await executor
        .updateTable('password_resets')
        .set({ used_at: now })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Ends the user's other unused reset links (a password was set). */
    retireResets: async (executor: Kysely<DB>, userId: number, now: string): Promise<void> => {
      await executor
        .updateTable('password_resets')
        .set({ used_at: now })
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .execute();
    },

    /** The user's passkeys, oldest first. */
    passkeysOf: async (userId: number, executor: Kysely<DB> = db): Promise<PasskeyRow[]> =>
      executor.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('id').execute(),

    /** The passkey with this credential id, with its user. */
    findPasskey: async (credentialId: string): Promise<{ passkey: PasskeyRow; user: Credentials } | undefined> => {
      const row = await db
        .selectFrom('passkeys')
        .innerJoin('users', 'users.id', 'passkeys.user_id')
        .selectAll('passkeys')
        .select(['users.name as user_name', 'users.email', 'users.status', 'users.password_hash', 'users.roles', 'users.permissions'])
        .where('passkeys.credential_id', '=', credentialId)
        .where('users.is_admin', '=', true)
        .executeTakeFirst();
      if (!row) return undefined;
      const { user_name: name, email, status, password_hash, roles, permissions, ...passkey } = row;
      return { passkey, user: credentials({ id: passkey.user_id, name, email, status, password_hash, roles, permissions }) };
    },

    insertPasskey: async (
      executor: Kysely<DB>,
      values: Pick<PasskeyRow, 'user_id' | 'credential_id' | 'public_key' | 'counter' | 'transports' | 'backed_up' | 'name' | 'created_at'>,
    ): Promise<PasskeyRow> => executor.insertInto('passkeys').values(values).returningAll().executeTakeFirstOrThrow(),

    usePasskey: async (executor: Kysely<DB>, id: number, counter: number, now: string): Promise<void> => {
      await executor.updateTable('passkeys').set({ counter, last_used_at: now }).where('id', '=', id).execute();
    },

    /** Removes one of the user's passkeys: the row removed, or undefined when it is not theirs. */
    removePasskey: async (executor: Kysely<DB>, userId: number, id: number): Promise<PasskeyRow | undefined> =>
      executor.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).returningAll().executeTakeFirst(),

    insertChallenge: async (values: { challengeHash: string; purpose: string; userId: number | null; expiresAt: string }, now: string) => {
      // Challenges past their time are forgotten here: the table holds only live ones, and no task is needed.
      await db.deleteFrom('webauthn_challenges').where('expires_at', '<', now).execute();
      await db
        .insertInto('webauthn_challenges')
        .values({ challenge_hash: values.challengeHash, purpose: values.purpose, user_id: values.userId, expires_at: values.expiresAt })
        .execute();
    },

    /** Uses a live challenge up, once: false when it is unknown, expired, used, or for another purpose or user. */
    useChallenge: async (challengeHash: string, purpose: string, userId: number | null, now: string): Promise<boolean> => {
      let query = db
        .deleteFrom('webauthn_challenges')
        .where('challenge_hash', '=', challengeHash)
        .where('purpose', '=', purpose)
        .where('expires_at', '>', now);
      query = userId === null ? query.where('user_id', 'is', null) : query.where('user_id', '=', userId);
      return Number((await query.executeTakeFirst()).numDeletedRows) > 0;
    },
  };
}

export type StaffAuthRepository = ReturnType<typeof createStaffAuthRepository>;
