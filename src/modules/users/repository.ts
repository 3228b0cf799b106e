import { timingSafeEqual } from 'node:crypto';
import { type Kysely, type Selectable, type SqlBool, sql, type Updateable } from 'kysely';
import { json } from '../../db/codec.ts';
import type { Dialect } from '../../db/database.ts';
import { type ListColumns, type ListRequest, listPage, type Page, rowsById } from '../../db/list.ts';
import { forUpdate } from '../../db/locks.ts';
import type { DB, UserInvitationTable, UserTable } from '../../db/schema.ts';
import { keptTotals } from '../../db/totals.ts';
import type { ChangeFeed } from '../../platform/changes.ts';
import type { Permission, Role } from '../../platform/permissions.ts';
import { userLifecycle } from './lifecycle.ts';
import type { UserSort, UserState } from './schemas.ts';

/** A staff user as stored, decoded (`permissions` an array on both databases). */
export interface StaffRow {
  id: number;
  name: string;
  email: string;
  job_title: string | null;
  status: UserState;
  roles: Role[];
  permissions: Permission[];
  invited_at: string | null;
  activated_at: string | null;
  suspended_at: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface StaffFilter {
  status?: UserState | undefined;
}

export interface NewStaff {
  name: string;
  /** Lowercased. */
  email: string;
  job_title: string | null;
  roles: readonly Role[];
  permissions: readonly Permission[];
  /** Created active rather than in draft (the administration's first administrator). */
  active?: boolean;
  now: string;
}

const COLUMNS = [
  'id',
  'name',
  'email',
  'job_title',
  'status',
  'roles',
  'permissions',
  'invited_at',
  'activated_at',
  'suspended_at',
  'archived_at',
  'created_at',
  'updated_at',
] as const;

type Row = Pick<Selectable<UserTable>, (typeof COLUMNS)[number]>;

const decode = (row: Row): StaffRow => ({
  id: row.id,
  name: row.name,
  email: row.email,
  job_title: row.job_title,
  status: row.status as UserState,
  roles: json<Role[]>(row.roles),
  permissions: json<Permission[]>(row.permissions),
  invited_at: row.invited_at,
  activated_at: row.activated_at,
  suspended_at: row.suspended_at,
  archived_at: row.archived_at,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/**
 * Staff users: `is_admin` rows of the users table. Every query here is limited to them, so a student's
 * id reads as missing.
 */
export function createStaffRepository(db: Kysely<DB>, dialect: Dialect, changes: ChangeFeed) {
  // The condition of the staff's own indexes in their words (migration 0029): SQLite uses a partial
  // index only for a query that states its condition, which a comparison with a parameter does not.
  const isStaff = sql<SqlBool>`${sql.ref('users.is_admin')} = true`;
  const staff = (executor: Kysely<DB>) => executor.selectFrom('users').select(COLUMNS).where(isStaff);

  return {
    /**
     * The staff lifecycle, each move announced: tokens acting for a user are kept by every process
     * (src/platform/tokens) and must see the user's new status.
     */
    lifecycle: userLifecycle.announcedOn(changes),

    list: async (filter: StaffFilter, list: ListRequest<UserSort>): Promise<Page<StaffRow>> => {
      let query = staff(db);
      if (filter.status !== undefined) query = query.where('status', '=', filter.status);
      const columns: ListColumns<UserSort> = {
        sort: { id: 'users.id', name: 'users.name', email: 'users.email', created_at: 'users.created_at', updated_at: 'users.updated_at' },
        id: 'users.id',
        updatedAt: 'users.updated_at',
      };
      // The window from the staff's index of its order (migrations 0029 and 0040), then the page's
      // rows; a page past the middle from the far end. The total is counted once per version of the
      // database (ADR 0015), where each page counted every staff user of its filters again (100,000
      // at scale 10: 5–8 ms on PostgreSQL), and each page is kept per version (ADR 0017).
      const page = await listPage(db, query, list, columns, {
        decorate: rowsById(staff(db), list, columns),
        kept: keptTotals(db, dialect),
        keepCount: true,
        nearerEnd: true,
      });
      return { items: page.items.map(decode), total: page.total };
    },

    /** Locks a user's row until the transaction ends, so that what is read next stays current. */
    lock: async (trx: Kysely<DB>, dialect: Dialect, id: number): Promise<void> => {
      await forUpdate(trx.selectFrom('users').select('id').where('id', '=', id), dialect).execute();
    },

    find: async (id: number, executor: Kysely<DB> = db): Promise<StaffRow | undefined> => {
      const row = await staff(executor).where('id', '=', id).executeTakeFirst();
      return row && decode(row);
    },

    /** Whether any user (staff or student) other than `exceptId` has this (lowercased) email. */
    emailTaken: async (email: string, exceptId?: number): Promise<boolean> => {
      let query = db.selectFrom('users').select('id').where('email', '=', email);
      if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    insert: async (trx: Kysely<DB>, values: NewStaff): Promise<StaffRow> =>
      decode(
        await trx
          .insertInto('users')
          .values({
            name: values.name,
            email: values.email,
            job_title: values.job_title,
            status: values.active ? 'active' : 'draft',
            activated_at: values.active ? values.now : null,
            is_admin: true,
            roles: JSON.stringify(values.roles),
            permissions: JSON.stringify(values.permissions),
            email_verified: false,
            created_at: values.now,
            updated_at: values.now,
          })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow(),
      ),

    /**
     * Changes a staff user's own fields; false when there is no such staff user. Announced: tokens
     * acting for the user are kept by every process with the user's permissions.
     */
    update: async (
      trx: Kysely<DB>,
      id: number,
      values: Pick<Updateable<UserTable>, 'name' | 'email' | 'job_title' | 'roles' | 'permissions' | 'updated_at'>,
    ): Promise<boolean> => {
      const result = await trx.updateTable('users').set(values).where('id', '=', id).where('is_admin', '=', true).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await changes.announce(trx);
      return true;
    },
  };
}

export type StaffRepository = ReturnType<typeof createStaffRepository>;

export type InvitationRow = Selectable<UserInvitationTable>;

/** Staff invitations, each stored with the SHA-256 of its token only (invitations.ts). */
export function createInvitationRepository(db: Kysely<DB>, dialect: Dialect) {
  return {
    /**
     * Stores the hash of the token that the invitation email `notificationId` is about to carry, to
     * `recipient`. A new attempt to send it replaces the token of the last one, whose email never
     * arrived. Nothing is stored, and false returned, once `recipient` is no longer the user's email:
     * the user's row is locked first, so an email change (which ends the user's open invitations in
     * its own transaction) either came before, or waits and then ends this one too.
     */
    issue: async (values: {
      userId: number;
      notificationId: number;
      recipient: string;
      hash: string;
      expiresAt: string;
      now: string;
    }): Promise<boolean> =>
      db.transaction().execute(async (trx) => {
        const user = await forUpdate(trx.selectFrom('users').select('email').where('id', '=', values.userId), dialect).executeTakeFirst();
        if (user?.email !== values.recipient) return false;
        await trx
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
        return true;
      }),

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

    /** Closes every open invitation of a user (activated by the administration, archived, or given another email). */
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
