import type { AcademyModule } from '../../platform/module.ts';
import { examples } from './examples.ts';
import { createOrganizationRepository } from './repository.ts';
import { organizationRoutes } from './routes.ts';
import { createOrganizationService } from './service.ts';

/** The organization singleton: its settings (time zone, locale, contact) read and changed over the API. */
export const organizationModule = {
  name: 'organization',
  routes:
    ({ platform }) =>
    async (app) => {
      const organization = createOrganizationService({
        organization: createOrganizationRepository(platform.database.db, platform.changes),
        changes: platform.changes,
        dialect: platform.database.dialect,
      });
      await app.register(organizationRoutes, { organization });
    },
  examples,
} satisfies AcademyModule;
