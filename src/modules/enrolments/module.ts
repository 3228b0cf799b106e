import type { AcademyModule } from '../../platform/module.ts';
import { adminEnrolmentCommands } from './admin.ts';
import { examples } from './examples.ts';
import { enrolmentRoutes } from './routes.ts';
import { enrolmentSearch } from './search.ts';
import { enrolmentServiceFor } from './service.ts';

/** Enrolments of students into training sessions, with a waitlist: read over the API, made in the administration. */
export const enrolmentsModule = {
  name: 'enrolments',
  routes:
    ({ platform }) =>
    async (app) => {
      await app.register(enrolmentRoutes, { enrolments: enrolmentServiceFor(platform), maxPageSize: platform.config.maxPageSize });
    },
  admin: adminEnrolmentCommands,
  search: [enrolmentSearch],
  examples,
} satisfies AcademyModule;
