import type { AcademyModule } from '../../platform/module.ts';
import { adminMeetingCommands } from './admin.ts';
import { examples } from './examples.ts';
import { meetingRoutes } from './routes.ts';
import { meetingSearch } from './search.ts';
import { meetingServiceFor } from './service.ts';

/** Meetings (class days) of training sessions: read under their session over the API, scheduled and cancelled in the administration. */
export const meetingsModule = {
  name: 'meetings',
  routes:
    ({ platform }) =>
    async (app) => {
      await app.register(meetingRoutes, { meetings: meetingServiceFor(platform), maxPageSize: platform.config.maxPageSize });
    },
  admin: adminMeetingCommands,
  search: [meetingSearch],
  examples,
} satisfies AcademyModule;
