import type { AcademyModule } from '../manifest.ts';
import { createStudentRepository } from '../students/repository.ts';
import { adminApplicationCommands } from './admin.ts';
import { createApplicationRepository } from './repository.ts';
import { type ApplicationService, createApplicationService } from './service.ts';

/** Course applications: created one by one or imported from CSV by the administration; seen through students. */
export const applicationsModule = {
  name: 'applications',
  services: {
    applications: ({ platform }) => {
      const { db, dialect } = platform.database;
      return createApplicationService({
        db,
        applications: createApplicationRepository(db),
        students: createStudentRepository(db, dialect),
        outbox: platform.outbox,
      });
    },
  },
  admin: adminApplicationCommands,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    applications: ApplicationService;
  }
}
