import type { AcademyModule } from '../../platform/module.ts';
import { adminStudentCommands } from './admin.ts';
import { examples } from './examples.ts';
import { studentRoutes } from './routes.ts';
import { studentSearch } from './search.ts';
import { studentServiceFor } from './service.ts';

/** Students: users with a course application who are not staff, read over the API, created by the administration. */
export const studentsModule = {
  name: 'students',
  routes:
    ({ platform }) =>
    async (app) => {
      await app.register(studentRoutes, { students: studentServiceFor(platform), maxPageSize: platform.config.maxPageSize });
    },
  admin: adminStudentCommands,
  search: [studentSearch],
  examples,
} satisfies AcademyModule;
