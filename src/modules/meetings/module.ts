import type { AcademyModule } from '../manifest.ts';
import { createOrganizationRepository } from '../organization/repository.ts';
import { createSessionRepository } from '../sessions/repository.ts';
import { adminMeetingCommands } from './admin.ts';
import { examples } from './examples.ts';
import { createMeetingRepository } from './repository.ts';
import { meetingRoutes } from './routes.ts';
import { meetingSearch } from './search.ts';
import { createMeetingService, type MeetingService } from './service.ts';

/** Meetings (class days) of training sessions: read under their session over the API, scheduled and cancelled in the administration. */
export const meetingsModule = {
  name: 'meetings',
  services: {
    meetings: ({ platform }) => {
      const { db, dialect } = platform.database;
      return createMeetingService({
        db,
        meetings: createMeetingRepository(db),
        sessions: createSessionRepository(db, dialect, platform.changes),
        organization: createOrganizationRepository(db, platform.changes),
      });
    },
  },
  routes:
    ({ platform, services }) =>
    async (app) => {
      await app.register(meetingRoutes, { meetings: services.meetings, maxPageSize: platform.config.maxPageSize });
    },
  admin: adminMeetingCommands,
  search: [meetingSearch],
  examples,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    meetings: MeetingService;
  }
}
