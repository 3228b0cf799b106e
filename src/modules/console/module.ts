import type { AcademyModule } from '../manifest.ts';
import { consolePages } from './pages.ts';

/**
 * The console: the academy's administration on the web for staff, over the same services as the
 * API and `academy admin` (issue 41). Its sign-in, account and sessions pages are the staff-auth
 * module's; these are the rest, at /console unless ACADEMY_CONSOLE=false.
 */
export const consoleModule = {
  name: 'console',
  pages: ({ platform, services }) => {
    const pages = consolePages({
      auth: services.staffAuth,
      organization: services.organization,
      secrets: platform.secrets,
      secure: platform.config.publicUrl?.startsWith('https:') ?? false,
      courses: services.courses,
      sessions: services.sessions,
      workflows: services.workflows,
      audit: services.audit,
      search: services.search,
      maxPageSize: platform.config.maxPageSize,
    });
    return async (app) => {
      if (platform.config.console) await app.register(pages);
    };
  },
} satisfies AcademyModule;
