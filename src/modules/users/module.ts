import type { AcademyModule } from '../../platform/module.ts';
import { createOrganizationRepository } from '../organization/repository.ts';
import { adminUserCommands } from './admin.ts';
import { examples } from './examples.ts';
import { invitationPages } from './pages.ts';
import { userRoutes } from './routes.ts';
import { userSearch } from './search.ts';
import { userServiceFor } from './service.ts';

/** Staff users and their lifecycle (draft → invited → active ⇄ suspended, archived), over the API and the administration. */
export const usersModule = {
  name: 'users',
  routes:
    ({ platform }) =>
    async (app) => {
      await app.register(userRoutes, { users: userServiceFor(platform), maxPageSize: platform.config.maxPageSize });
    },
  pages: ({ platform }) => {
    const organization = createOrganizationRepository(platform.database.db, platform.changes);
    return invitationPages({ users: userServiceFor(platform), organizationName: async () => (await organization.get()).name });
  },
  admin: adminUserCommands,
  search: [userSearch],
  examples,
} satisfies AcademyModule;
