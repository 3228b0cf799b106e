import type { AcademyModule } from '../manifest.ts';
import { adminStudentCommands } from './admin.ts';
import { examples } from './examples.ts';
import { createStudentRepository } from './repository.ts';
import { studentRoutes } from './routes.ts';
import { studentSearch } from './search.ts';
import { createStudentService, type StudentService } from './service.ts';

/** Students: users with a course application who are not staff, read over the API, created by the administration. */
export const studentsModule = {
  name: 'students',
  services: {
    students: ({ platform }) =>
      createStudentService({
        db: platform.database.db,
        students: createStudentRepository(platform.database.db, platform.database.dialect),
      }),
  },
  routes:
    ({ platform, services }) =>
    async (app) => {
      await app.register(studentRoutes, { students: services.students, maxPageSize: platform.config.maxPageSize });
    },
  admin: adminStudentCommands,
  search: [studentSearch],
  examples,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    students: StudentService;
  }
}
