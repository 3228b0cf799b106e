import type { AcademyModule } from '../../platform/module.ts';
import { examples } from './examples.ts';
import { searchRoutes } from './routes.ts';
import { createSearchService, searchGroupsOf } from './service.ts';

/** Search: `GET /search` over the groups every module contributes (`search` in their manifests). */
export const searchModule = {
  name: 'search',
  routes:
    ({ platform, modules }) =>
    async (app) => {
      const groups = searchGroupsOf(modules);
      await app.register(searchRoutes, { search: createSearchService(platform, groups), groups });
    },
  examples,
} satisfies AcademyModule;
