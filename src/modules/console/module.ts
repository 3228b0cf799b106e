import { createJobMetricsRepository } from '../../platform/jobs/metrics-repository.ts';
import type { AcademyModule } from '../manifest.ts';
import { createHomeReads } from './home-data.ts';
import { consolePages } from './pages.ts';
import { createRoster } from './roster.ts';
import { createSubjectReader } from './subjects.ts';

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
      home: createHomeReads(platform.database.db),
      users: services.users,
      tasks: services.tasks,
      integrations: services.integrations,
      webhooks: services.webhooks,
      tokens: platform.tokens,
      health: services.health,
      jobs: createJobMetricsRepository(platform.database.db),
      enrolments: services.enrolments,
      students: services.students,
      meetings: services.meetings,
      assessments: services.assessments,
      resources: services.resources,
      roster: createRoster(platform.database.db),
      documents: services.documents,
      reports: services.reports,
      subjects: createSubjectReader(platform.database.db),
      studentPages: {
        students: services.students,
        applications: services.applications,
        enrolments: services.enrolments,
        certificates: services.certificates,
        documents: services.documents,
        courses: services.courses,
        db: platform.database.db,
        secrets: platform.secrets,
        dataDir: platform.config.dataDir,
        publicUrl: platform.config.publicUrl,
        maxPageSize: platform.config.maxPageSize,
      },
      maxPageSize: platform.config.maxPageSize,
    });
    return async (app) => {
      if (platform.config.console) await app.register(pages);
    };
  },
} satisfies AcademyModule;
