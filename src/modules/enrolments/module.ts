import type { AcademyModule } from '../manifest.ts';
import { createSessionRepository } from '../sessions/repository.ts';
import { adminEnrolmentCommands } from './admin.ts';
import { examples } from './examples.ts';
import { createEnrolmentRepository } from './repository.ts';
import { enrolmentRoutes } from './routes.ts';
import { enrolmentSearch } from './search.ts';
import { createEnrolmentService, type EnrolmentService } from './service.ts';
import { createWaitlist } from './waitlist.ts';

/** Enrolments of students into training sessions, with a waitlist: read over the API, made in the administration. */
export const enrolmentsModule = {
  name: 'enrolments',
  services: {
    enrolments: ({ platform }) => {
      const { db, dialect } = platform.database;
      const enrolments = createEnrolmentRepository(db, dialect);
      const sessions = createSessionRepository(db, dialect, platform.changes);
      return createEnrolmentService({
        db,
        enrolments,
        sessions,
        waitlist: createWaitlist({ enrolments, sessions, outbox: platform.outbox }),
        outbox: platform.outbox,
      });
    },
  },
  routes:
    ({ platform, services }) =>
    async (app) => {
      await app.register(enrolmentRoutes, { enrolments: services.enrolments, maxPageSize: platform.config.maxPageSize });
    },
  admin: adminEnrolmentCommands,
  search: [enrolmentSearch],
  examples,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    enrolments: EnrolmentService;
  }
}
