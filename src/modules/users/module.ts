import type { AcademyModule } from '../../platform/module.ts';
import { createOrganizationRepository } from '../organization/repository.ts';
import { adminUserCommands } from './admin.ts';
import { invitationPages } from './pages.ts';
import { userRoutes } from './routes.ts';
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
  search: [
    {
      name: 'users',
      columns: ['name', 'email', 'status'],
      order: 'name',
      matches: ({ db, user }) =>
        db
          .selectFrom('users')
          .select(['users.id', 'users.name', 'users.email', 'users.status'])
          .where('users.is_admin', '=', true)
          .where(user('users.id')),
      hit: (row: { id: number; name: string; email: string; status: string }) => ({
        id: row.id,
        type: 'user',
        title: row.name,
        path: `/api/v1/users/${row.id}`,
        email: row.email,
        status: row.status,
      }),
    },
  ],
} satisfies AcademyModule;
