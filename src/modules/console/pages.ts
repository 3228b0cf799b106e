import type { FastifyPluginAsync } from 'fastify';
import type { AuditService } from '../audit/service.ts';
import type { SearchService } from '../search/service.ts';
import { acceptForms } from '../staff-auth/pages.ts';
import { STYLESHEET, STYLESHEET_PATH } from './assets.ts';
import { auditPages } from './audit.tsx';
import { type CatalogueDeps, cataloguePages } from './catalogue.tsx';
import { type GuardDeps, guardPages } from './guard.ts';
import { searchPages } from './search.tsx';

export interface ConsoleDeps extends GuardDeps, CatalogueDeps {
  audit: AuditService;
  search: SearchService;
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
    await app.register(async (pages) => {
      guardPages(pages, deps);
      cataloguePages(pages, deps);
      auditPages(pages, deps);
      searchPages(pages, deps);
    });
  };
}
