import type { Kysely } from 'kysely';
import type { ListRequest, Page } from '../../db/list.ts';
import type { DB } from '../../db/schema.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { NotFoundError } from '../../platform/errors.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { NotificationFilter, NotificationRepository, NotificationRow } from './repository.ts';
import type { Notification, NotificationSort, NotificationType } from './schemas.ts';
import { renderSubject } from './templates.ts';

/** Delivery attempts of one notification: the first and five retries over about three hours. */
export const NOTIFICATION_MAX_ATTEMPTS = 6;

export function presentNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    user_id: row.user_id,
    recipient: row.recipient,
    subject: row.subject,
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    last_error: row.last_error,
    sent_at: row.sent_at,
    failed_at: row.failed_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function createNotificationService(deps: { notifications: NotificationRepository; queue: JobQueue }) {
  const { notifications } = deps;
  return {
    async list(_ctx: ServiceContext, filter: NotificationFilter, list: ListRequest<NotificationSort>): Promise<Page<Notification>> {
      const page = await notifications.list(filter, list);
      return { items: page.items.map(presentNotification), total: page.total };
    },

    async get(_ctx: ServiceContext, id: number): Promise<Notification> {
      const row = await notifications.find(id);
      if (!row) throw new NotFoundError();
      return presentNotification(row);
    },

    /**
     * Queues the email of a lifecycle move, in the move's transaction: the notification and its
     * delivery job exist exactly when the move was committed. The subject is fixed now, in the
     * organization's name and locale; the body is written when the email is sent.
     */
    async notify(trx: Kysely<DB>, ctx: ServiceContext, type: NotificationType, user: { id: number; email: string }): Promise<Notification> {
      const sender = await notifications.sender(trx);
      const row = await notifications.insert(trx, {
        type,
        user_id: user.id,
        recipient: user.email,
        subject: renderSubject(type, sender.locale, sender.name),
        locale: sender.locale,
        max_attempts: NOTIFICATION_MAX_ATTEMPTS,
        now: ctx.clock.now().toISOString(),
      });
      await deps.queue.enqueue(
        trx,
        'notifications.send',
        { notificationId: row.id },
        { maxAttempts: NOTIFICATION_MAX_ATTEMPTS, key: `notification:${row.id}` },
      );
      ctx.logger.info({ notificationId: row.id, type, userId: user.id }, 'notification queued');
      return presentNotification(row);
    },
  };
}

export type NotificationService = ReturnType<typeof createNotificationService>;
