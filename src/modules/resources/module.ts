import type { AcademyModule } from '../manifest.ts';
import { createSessionRepository } from '../sessions/repository.ts';
import { adminResourceCommands } from './admin.ts';
import { examples } from './examples.ts';
import { createResourceRepository } from './repository.ts';
import { resourceRoutes } from './routes.ts';
import { resourceSearch } from './search.ts';
import { createResourceService, type ResourceService } from './service.ts';

/** Learning resources of training sessions: the published ones read over the API, drafted and published in the administration. */
export const resourcesModule = {
  name: 'resources',
  services: {
    resources: ({ platform }) => {
      const { db, dialect } = platform.database;
      return createResourceService({
        db,
        resources: createResourceRepository(db),
        sessions: createSessionRepository(db, dialect, platform.changes),
      });
    },
  },
  routes:
    ({ platform, services }) =>
    async (app) => {
      await app.register(resourceRoutes, { resources: services.resources, maxPageSize: platform.config.maxPageSize });
    },
  admin: adminResourceCommands,
  search: [resourceSearch],
  examples,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    resources: ResourceService;
  }
}
