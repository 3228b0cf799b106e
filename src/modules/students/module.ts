import { splitCrowdedMarks } from '../../db/student-marks.ts';
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
        dialect: platform.database.dialect,
        students: createStudentRepository(platform.database.db, platform.database.dialect, platform.database.readers),
      }),
  },
  routes:
    ({ platform, services }) =>
    async (app) => {
      await app.register(studentRoutes, { students: services.students, maxPageSize: platform.config.maxPageSize });
    },
  tasks: {
    // Buckets of the list's orders that grew past SPLIT_SIZE students are cut again (ADR 0024).
    'students.split_marks': async ({ platform }) => splitCrowdedMarks(platform.database.db, platform.database.dialect),
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
