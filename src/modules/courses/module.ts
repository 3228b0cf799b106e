import type { AcademyModule } from '../../platform/module.ts';
import { adminCourseCommands } from './admin.ts';
import { examples } from './examples.ts';
import { courseRoutes } from './routes.ts';
import { courseSearch } from './search.ts';
import { courseServiceFor } from './service.ts';

/** Courses: the training catalogue, read over the API, created and published in the administration. */
export const coursesModule = {
  name: 'courses',
  routes:
    ({ platform }) =>
    async (app) => {
      await app.register(courseRoutes, { courses: courseServiceFor(platform), maxPageSize: platform.config.maxPageSize });
    },
  admin: adminCourseCommands,
  search: [courseSearch],
  examples,
} satisfies AcademyModule;
