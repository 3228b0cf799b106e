import type { AcademyModule } from '../manifest.ts';
import { examples } from './examples.ts';
import { searchRoutes } from './routes.ts';
import { createSearchService, type SearchService, searchGroupsOf } from './service.ts';

/** Search: `GET /search` over the groups every module contributes (`search` in their manifests). */
export const searchModule = {
  name: 'search',
  services: {
    search: ({ platform, modules }) => createSearchService(platform, searchGroupsOf(modules)),
  },
  routes:
    ({ services, modules }) =>
    async (app) => {
      await app.register(searchRoutes, { search: services.search, groups: searchGroupsOf(modules) });
    },
  examples,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    search: SearchService;
  }
}
