import { fixedClock } from '../../platform/clock.ts';
import { systemContext } from '../../platform/context.ts';
import { createCourseRepository } from '../courses/repository.ts';
import { createEnrolmentRepository } from '../enrolments/repository.ts';
import { createWaitlist } from '../enrolments/waitlist.ts';
import type { AcademyModule } from '../manifest.ts';
import { createOrganizationRepository } from '../organization/repository.ts';
import { adminSessionCommands } from './admin.ts';
import { examples } from './examples.ts';
import { createSessionRepository } from './repository.ts';
import { sessionRoutes } from './routes.ts';
import { sessionSearch } from './search.ts';
import { createSessionService, type SessionService } from './service.ts';

/**
 * Training sessions (a course's intakes): read under their course over the API, managed in the
 * administration, and moved along their workflow by the `sessions.advance` task from their dates.
 */
export const sessionsModule = {
  name: 'sessions',
  services: {
    sessions: ({ platform }) => {
      const { db, dialect } = platform.database;
      const sessions = createSessionRepository(db, dialect, platform.changes);
      return createSessionService({
        db,
        sessions,
        courses: createCourseRepository(db, platform.changes, dialect),
        organization: createOrganizationRepository(db, platform.changes),
        waitlist: createWaitlist({ enrolments: createEnrolmentRepository(db, dialect), sessions, outbox: platform.outbox }),
        outbox: platform.outbox,
      });
    },
  },
  routes:
    ({ platform, services }) =>
    async (app) => {
      await app.register(sessionRoutes, {
        sessions: services.sessions,
        changes: platform.changes,
        maxPageSize: platform.config.maxPageSize,
      });
    },
  tasks: {
    'sessions.advance': async ({ services, now, logger }) => {
      const clock = fixedClock(now);
      return services.sessions.advance(systemContext({ clock, logger }));
    },
  },
  admin: adminSessionCommands,
  search: [sessionSearch],
  examples,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    sessions: SessionService;
  }
}
