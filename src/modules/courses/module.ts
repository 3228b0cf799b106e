import type { AcademyModule } from '../manifest.ts';
import { adminCourseCommands } from './admin.ts';
import { examples } from './examples.ts';
import { createCourseRepository } from './repository.ts';
import { courseRoutes } from './routes.ts';
import { courseSearch } from './search.ts';
import { type CourseService, createCourseService } from './service.ts';

/** Courses: the training catalogue, read over the API, created and published in the administration. */
export const coursesModule = {
  name: 'courses',
  services: {
    courses: ({ platform }) =>
      createCourseService({
        db: platform.database.db,
        courses: createCourseRepository(platform.database.db, platform.changes, platform.database.dialect),
        outbox: platform.outbox,
      }),
  },
  routes:
    ({ platform, services }) =>
    async (app) => {
      await app.register(courseRoutes, { courses: services.courses, changes: platform.changes, maxPageSize: platform.config.maxPageSize });
    },
  admin: adminCourseCommands,
  search: [courseSearch],
  examples,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    courses: CourseService;
  }
}
