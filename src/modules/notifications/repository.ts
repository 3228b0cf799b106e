import { type Kysely, type Selectable, sql } from 'kysely';
import { type ListRequest, listPage, type Page } from '../../db/list.ts';
import type { DB, NotificationTable } from '../../db/schema.ts';
import type { NotificationSort, NotificationStatus, NotificationType } from './schemas.ts';

export interface NotificationRow extends Omit<Selectable<NotificationTable>, 'type' | 'status'> {
  type: NotificationType;
  status: NotificationStatus;
}

export interface NotificationFilter {
  type?: NotificationType | undefined;
  status?: NotificationStatus | undefined;
  userId?: number | undefined;
}

export interface NewNotification {
  type: NotificationType;
  user_id: number;
  recipient: string;
  subject: string;
  locale: string;
  max_attempts: number;
  now: string;
}

const decode = (row: Selectable<NotificationTable>): NotificationRow => row as NotificationRow;

export function createNotificationRepository(db: Kysely<DB>) {
  return {
    list: async (filter: NotificationFilter, list: ListRequest<NotificationSort>): Promise<Page<NotificationRow>> => {
      let query = db.selectFrom('notifications').selectAll();
      if (filter.type !== undefined) query = query.where('type', '=', filter.type);
      if (filter.status !== undefined) query = query.where('status', '=', filter.status);
      if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
      const page = await listPage(db, query, list, { sort: { id: 'id', created_at: 'created_at', updated_at: 'updated_at' } });
      return { items: page.items.map(decode), total: page.total };
    },

    find: async (id: number, executor: Kysely<DB> = db): Promise<NotificationRow | undefined> => {
      const row = await executor.selectFrom('notifications').selectAll().where('id', '=', id).executeTakeFirst();
      return row && decode(row);
    },

    insert: async (trx: Kysely<DB>, values: NewNotification): Promise<NotificationRow> =>
      decode(
        await trx
          .insertInto('notifications')
          .values({
            type: values.type,
            status: 'queued',
            user_id: values.user_id,
            recipient: values.recipient,
            subject: values.subject,
            locale: values.locale,
            attempts: 0,
            max_attempts: values.max_attempts,
            last_error: null,
            message_id: null,
            sent_at: null,
            failed_at: null,
            created_at: values.now,
            updated_at: values.now,
          })
          .returningAll()
          .executeTakeFirstOrThrow(),
      ),

    /** Counts an attempt that is about to be made; false when the notification is no longer queued. */
    startAttempt: async (id: number, attempts: number, now: string): Promise<boolean> => {
      const result = await db
        .updateTable('notifications')
        .set({ attempts, updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'queued')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    markSent: async (id: number, messageId: string, now: string): Promise<void> => {
      await db
        .updateTable('notifications')
        .set({ status: 'sent', message_id: messageId, last_error: null, sent_at: now, updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'queued')
        .execute();
    },

    /** An attempt failed; the notification stays queued for the next one. */
    recordFailure: async (id: number, error: string, now: string): Promise<void> => {
      await db
        .updateTable('notifications')
        .set({ last_error: error, updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'queued')
        .execute();
    },

    /** Delivery was given up (in the transaction that fails its job). */
    markFailed: async (trx: Kysely<DB>, id: number, error: string, now: string): Promise<void> => {
      await trx
        .updateTable('notifications')
        .set({ status: 'failed', last_error: error, failed_at: now, updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'queued')
        .execute();
    },

    /** The organization's name, locale, time zone and contact address: the sender of every email. */
    sender: async (executor: Kysely<DB> = db) =>
      executor
        .selectFrom('organization')
        .select(['name', 'locale', 'timezone', 'contact_email'])
        .where('id', '=', 1)
        .executeTakeFirstOrThrow(),

    /** The name of the user a notification is about, to greet them with. */
    userName: async (id: number): Promise<string | undefined> =>
      (await db.selectFrom('users').select('name').where('id', '=', id).executeTakeFirst())?.name,

    /** How many notifications there are in each status (the metrics). */
    countByStatus: async (): Promise<{ status: string; n: number }[]> =>
      (
        await db
          .selectFrom('notifications')
          .select(['status', sql<number | string>`count(*)`.as('n')])
          .groupBy('status')
          .execute()
      ).map((row) => ({ status: row.status, n: Number(row.n) })),
  };
}

export type NotificationRepository = ReturnType<typeof createNotificationRepository>;
