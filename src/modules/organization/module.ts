import type { AcademyModule } from '../manifest.ts';
import { examples } from './examples.ts';
import { createOrganizationRepository } from './repository.ts';
import { organizationRoutes } from './routes.ts';
import { createOrganizationService, type OrganizationService } from './service.ts';

/** The organization singleton: its settings (time zone, locale, contact) read and changed over the API. */
export const organizationModule = {
  name: 'organization',
  services: {
    organization: ({ platform }) =>
      createOrganizationService({
        organization: createOrganizationRepository(platform.database.db, platform.changes),
        dialect: platform.database.dialect,
      }),
  },
  routes:
    ({ platform, services }) =>
    async (app) => {
      await app.register(organizationRoutes, { organization: services.organization, changes: platform.changes });
    },
  examples,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    organization: OrganizationService;
  }
}
