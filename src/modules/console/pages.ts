import type { FastifyPluginAsync } from 'fastify';
import type { JobMetricsRepository } from '../../platform/jobs/metrics-repository.ts';
import type { TokenService } from '../../platform/tokens/service.ts';
import type { AuditService } from '../audit/service.ts';
import type { DocumentService } from '../documents/service.ts';
import type { HealthService } from '../health/service.ts';
import type { IntegrationService } from '../integrations/service.ts';
import type { ReportService } from '../reports/service.ts';
import type { SearchService } from '../search/service.ts';
import { acceptForms } from '../staff-auth/pages.ts';
import type { TaskService } from '../tasks/service.ts';
import type { UserService } from '../users/service.ts';
import type { WebhookService } from '../webhooks/service.ts';
import { approvalPages } from './approvals.tsx';
import { STYLESHEET, STYLESHEET_PATH } from './assets.ts';
import { auditPages } from './audit.tsx';
import { type CatalogueDeps, cataloguePages } from './catalogue.tsx';
import { documentPages } from './documents.tsx';
import { type GuardDeps, guardPages } from './guard.ts';
import { homePages } from './home.tsx';
import type { HomeReads } from './home-data.ts';
import { operationsPages } from './operations.tsx';
import { reportPages } from './reports.tsx';
import { searchPages } from './search.tsx';
import { type SessionPagesDeps, sessionPages } from './sessions.tsx';
import { settingsPages } from './settings.tsx';
import { staffPages } from './staff.tsx';
import { type StudentPagesDeps, studentPages } from './students.tsx';
import type { SubjectReader } from './subjects.ts';
import { workAssets } from './work-assets.ts';

export interface ConsoleDeps extends GuardDeps, CatalogueDeps, SessionPagesDeps {
  audit: AuditService;
  search: SearchService;
  // Home, staff, operations and settings.
  home: HomeReads;
  users: UserService;
  tasks: TaskService;
  integrations: IntegrationService;
  webhooks: WebhookService;
  tokens: TokenService;
  health: HealthService;
  jobs: JobMetricsRepository;
  documents: DocumentService;
  reports: ReportService;
  subjects: SubjectReader;
  // Students, the applications import and certificates.
  studentPages: StudentPagesDeps;
}

/**
 * The console's pages for signed-in staff (issue 41; CONTRACT, "Staff sign-in and the console"):
 * the catalogue, the audit trail and the search, in one scope behind the guard (a live session,
 * CSRF tokens on every POST, refusals as pages), and the stylesheet they share.
 */
export function consolePages(deps: ConsoleDeps): FastifyPluginAsync {
  return async (app) => {
    acceptForms(app);
    app.get(STYLESHEET_PATH, { config: { access: 'open' }, schema: { hide: true } }, async (_request, reply) =>
      reply
        .header('content-type', 'text/css; charset=utf-8')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(STYLESHEET),
    );
    workAssets(app);
    await app.register(async (pages) => {
      guardPages(pages, deps);
      cataloguePages(pages, deps);
      auditPages(pages, deps);
      searchPages(pages, deps);
      homePages(pages, deps);
      staffPages(pages, deps);
      operationsPages(pages, deps);
      settingsPages(pages, deps);
      approvalPages(pages, deps);
      documentPages(pages, deps);
      reportPages(pages, deps);
      sessionPages(pages, deps);
      studentPages(pages, deps.studentPages);
    });
  };
}
