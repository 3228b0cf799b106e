import type { AcademyModule } from '../../platform/module.ts';
import { adminNotificationCommands } from './admin.ts';
import { notificationJobs } from './delivery.ts';
import { notificationRoutes } from './routes.ts';
import { notificationServiceFor } from './service.ts';

/** Identity notifications: the emails of the staff lifecycle, delivered by a job and read over the API. */
export const notificationsModule = {
  name: 'notifications',
  routes:
    ({ platform }) =>
    async (app) => {
      await app.register(notificationRoutes, { notifications: notificationServiceFor(platform), maxPageSize: platform.config.maxPageSize });
    },
  jobs: ({ platform }) => notificationJobs(platform),
  admin: adminNotificationCommands,
  search: [
    {
      name: 'notifications',
      columns: ['recipient', 'subject', 'type', 'status'],
      order: 'id',
      direction: 'desc',
      matches: ({ db, match }) =>
        db
          .selectFrom('notifications')
          .select(['notifications.id', 'notifications.recipient', 'notifications.subject', 'notifications.type', 'notifications.status'])
          .where(match('notifications')),
      hit: (row: { id: number; recipient: string; subject: string; type: string; status: string }) => ({
        id: row.id,
        type: 'notification',
        title: row.subject,
        path: `/api/v1/notifications/${row.id}`,
        recipient: row.recipient,
        notification_type: row.type,
        status: row.status,
      }),
    },
  ],
} satisfies AcademyModule;

declare module '../../platform/jobs/names.ts' {
  interface JobPayloads {
    /** One attempt to send an identity notification through the mail port. */
    'notifications.send': { notificationId: number };
  }
}
