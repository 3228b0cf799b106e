import type { AcademyModule } from '../manifest.ts';
import { createOrganizationRepository } from '../organization/repository.ts';
import { invitationPages } from './invitation.ts';
import { singleSignOnPages } from './oidc.ts';
import { consoleAuthPages } from './pages.ts';
import { createStaffAuthRepository } from './repository.ts';
import { createStaffAuthService, type StaffAuthService } from './service.ts';

/**
 * Staff sign-in: passwords, server-side sessions and password resets, and the console's sign-in
 * pages at /console (unless ACADEMY_CONSOLE=false).
 */
export const staffAuthModule = {
  name: 'staff-auth',
  services: {
    staffAuth: ({ platform, services }) =>
      createStaffAuthService({
        db: platform.database.db,
        auth: createStaffAuthRepository(platform.database.db),
        notifications: services.notifications,
        clock: platform.clock,
        idleMinutes: platform.config.sessionIdleMinutes,
      }),
  },
  pages: ({ platform, services }) => {
    const deps = { auth: services.staffAuth, secrets: platform.secrets, secure: platform.config.publicUrl?.startsWith('https:') ?? false };
    const organization = createOrganizationRepository(platform.database.db, platform.changes);
    const invitations = invitationPages({
      ...deps,
      users: services.users,
      organizationName: async () => (await organization.get()).name,
      console: platform.config.console,
    });
    return async (app) => {
      await app.register(invitations);
      if (!platform.config.console) return;
      await app.register(consoleAuthPages(deps));
      const singleSignOn = singleSignOnPages(platform, services.staffAuth);
      if (singleSignOn) await app.register(singleSignOn);
    };
  },
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    staffAuth: StaffAuthService;
  }
}
