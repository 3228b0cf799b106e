import type { AcademyModule } from '../../platform/module.ts';
import { adminResourceCommands } from './admin.ts';
import { examples } from './examples.ts';
import { resourceRoutes } from './routes.ts';
import { resourceSearch } from './search.ts';
import { resourceServiceFor } from './service.ts';

/** Learning resources of training sessions: the published ones read over the API, drafted and published in the administration. */
export const resourcesModule = {
  name: 'resources',
  routes:
    ({ platform }) =>
    async (app) => {
      await app.register(resourceRoutes, { resources: resourceServiceFor(platform), maxPageSize: platform.config.maxPageSize });
    },
  admin: adminResourceCommands,
  search: [resourceSearch],
  examples,
} satisfies AcademyModule;
