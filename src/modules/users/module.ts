import type { AcademyModule } from '../../platform/module.ts';
import { adminUserCommands } from './admin.ts';
import { createStaffRepository } from './repository.ts';
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
  admin: adminUserCommands,
  search: [
    {
      name: 'users',
      async search(platform, { q, limit }) {
        const { items, total } = await createStaffRepository(platform.database.db).search(q.trim(), limit);
        return {
          total,
          items: items.map((user) => ({
            id: user.id,
            type: 'user',
            title: user.name,
            path: `/api/v1/users/${user.id}`,
            email: user.email,
            status: user.status,
          })),
        };
      },
    },
  ],
} satisfies AcademyModule;
