import type { AcademyModule } from '../manifest.ts';
import { createOrganizationRepository } from '../organization/repository.ts';
import { invitationPages } from './invitation.ts';
import { oidcButton, singleSignOnPages } from './oidc.ts';
import { consoleAuthPages } from './pages.ts';
import { passkeyPages } from './passkey-pages.ts';
import { createPasskeyService, type PasskeyService } from './passkeys.ts';
import { createStaffAuthRepository } from './repository.ts';
import { createStaffAuthService, type StaffAuthService } from './service.ts';

/**
 * Staff sign-in: passwords, passkeys, single sign-on, server-side sessions and password resets, and the console's sign-in
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
        resetUrl: platform.config.resetUrl,
      }),
    passkeys: ({ platform, services }) =>
      createPasskeyService({
        db: platform.database.db,
        auth: createStaffAuthRepository(platform.database.db),
        sessions: services.staffAuth,
        secrets: platform.secrets,
        clock: platform.clock,
      }),
  },
  pages: ({ platform, services }) => {
    const oidc = platform.config.oidc;
    const deps = {
      auth: services.staffAuth,
      otherSignIns: oidc ? (next: string) => oidcButton(oidc.name, next) : undefined,
      passkeys: services.passkeys,
      secrets: platform.secrets,
      secure: platform.config.publicUrl?.startsWith('https:') ?? false,
    };
    const organization = createOrganizationRepository(platform.database.db, platform.changes);
    const organizationName = async () => (await organization.get()).name;
    const invitations = invitationPages({ ...deps, users: services.users, organizationName, console: platform.config.console });
    return async (app) => {
      await app.register(invitations);
      if (!platform.config.console) return;
      await app.register(consoleAuthPages(deps));
      const singleSignOn = singleSignOnPages(platform, services.staffAuth);
      if (singleSignOn) await app.register(singleSignOn);
      await app.register(passkeyPages({ ...deps, users: services.users, organizationName, publicUrl: platform.config.publicUrl }));
    };
  },
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    staffAuth: StaffAuthService;
    passkeys: PasskeyService;
  }
}
