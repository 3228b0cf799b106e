import { fixedClock } from '../../platform/clock.ts';
import { systemContext } from '../../platform/context.ts';
import type { AcademyModule } from '../../platform/module.ts';
import { adminSessionCommands } from './admin.ts';
import { examples } from './examples.ts';
import { sessionRoutes } from './routes.ts';
import { sessionSearch } from './search.ts';
import { sessionServiceFor } from './service.ts';

/**
 * Training sessions (a course's intakes): read under their course over the API, managed in the
 * administration, and moved along their workflow by the `sessions.advance` task from their dates.
 */
export const sessionsModule = {
  name: 'sessions',
  routes:
    ({ platform }) =>
    async (app) => {
      await app.register(sessionRoutes, { sessions: sessionServiceFor(platform), maxPageSize: platform.config.maxPageSize });
    },
  tasks: {
    'sessions.advance': async ({ platform, now, logger }) => {
      const clock = fixedClock(now);
      return sessionServiceFor(platform).advance(systemContext({ clock, logger }));
    },
  },
  admin: adminSessionCommands,
  search: [sessionSearch],
  examples,
} satisfies AcademyModule;
