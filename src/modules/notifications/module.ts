import type { AcademyModule } from '../manifest.ts';
import { adminNotificationCommands } from './admin.ts';
import { notificationJobs } from './delivery.ts';
import { examples } from './examples.ts';
import { notificationMetrics } from './metrics.ts';
import { createNotificationRepository } from './repository.ts';
import { notificationRoutes } from './routes.ts';
import { notificationSearch } from './search.ts';
import { createNotificationService, type NotificationService } from './service.ts';

/** Identity notifications: the emails of the staff lifecycle, delivered by a job and read over the API. */
export const notificationsModule = {
  name: 'notifications',
  services: {
    notifications: ({ platform }) =>
      createNotificationService({ notifications: createNotificationRepository(platform.database.db), queue: platform.queue }),
  },
  routes:
    ({ platform, services }) =>
    async (app) => {
      await app.register(notificationRoutes, { notifications: services.notifications, maxPageSize: platform.config.maxPageSize });
    },
  jobs: ({ platform }) => notificationJobs(platform),
  admin: adminNotificationCommands,
  search: [notificationSearch],
  metrics: notificationMetrics,
  examples,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    notifications: NotificationService;
  }
}

declare module '../../platform/jobs/names.ts' {
  interface JobPayloads {
    /** One attempt to send an identity notification through the mail port. */
    'notifications.send': { notificationId: number };
  }
}
