import type { AcademyModule } from '../manifest.ts';
import { createStaffAuthRepository } from '../staff-auth/repository.ts';
import { createWorkflowRepository } from '../workflows/repository.ts';
import { adminUserCommands } from './admin.ts';
import { examples } from './examples.ts';
import { createInvitationRepository, createStaffRepository } from './repository.ts';
import { userRoutes } from './routes.ts';
import { userSearch } from './search.ts';
import { createUserService, type UserService } from './service.ts';

/** Staff users and their lifecycle (draft → invited → active ⇄ suspended, archived), over the API and the administration. */
export const usersModule = {
  name: 'users',
  services: {
    users: ({ platform, services }) => {
      const { db, dialect } = platform.database;
      return createUserService({
        db,
        dialect,
        staff: createStaffRepository(db, dialect, platform.changes),
        invitations: createInvitationRepository(db, dialect),
        notifications: services.notifications,
        namedIn: createWorkflowRepository(db),
        sessions: createStaffAuthRepository(db),
      });
    },
  },
  routes:
    ({ platform, services }) =>
    async (app) => {
      await app.register(userRoutes, { users: services.users, maxPageSize: platform.config.maxPageSize });
    },

  admin: adminUserCommands,
  search: [userSearch],
  examples,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    users: UserService;
  }
}
