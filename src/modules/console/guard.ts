import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Access } from '../../http/access.ts';
import { consoleContext } from '../../http/context.ts';
import { toAppError } from '../../http/errors.ts';
import type { AppError } from '../../platform/errors.ts';
import type { SecretBox } from '../../platform/secrets/box.ts';
import type { OrganizationService } from '../organization/service.ts';
import type { StaffAuthService } from '../staff-auth/service.ts';
import { cookiesOf, createCsrf, SESSION_COOKIE } from '../staff-auth/web.ts';
import { ErrorPage } from './layout.tsx';
import type { Viewer } from './viewer.ts';

/**
 * Console pages: each staff session counted against the per-token quota once the guard knows it (an
 * office behind one address is many users); a request without a session against its address's.
 */
export const PAGE: Access = { session: 'console' };

/**
 * What every console page sends, as the sign-in pages do (src/modules/staff-auth/web.ts; a test
 * holds the two equal): no inline script or style, nothing from another origin, forms post here
 * only, no framing, no cache keeps the page and no Referer carries its URL out.
 */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

/** Sends a rendered page (a Layout) with the console's headers. */
export async function sendPage(reply: FastifyReply, status: number, page: JSX.Element): Promise<FastifyReply> {
  return reply
    .code(status)
    .headers(PAGE_HEADERS)
    .send(`<!doctype html>\n${await page}`);
}

/** A POST's answer on success: the page to show next, asked for with a GET (POST-redirect-GET). */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header('location', location).header('cache-control', 'no-store').send();
}

/** A page's query parameters, each once: a parameter given twice counts as its first value. */
export function queryOf(request: FastifyRequest): Record<string, unknown> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(query).map(([name, value]) => [name, Array.isArray(value) ? value[0] : value]));
}

export interface GuardDeps {
  auth: StaffAuthService;
  organization: OrganizationService;
  secrets: Pick<SecretBox, 'mac' | 'verifyMac'>;
  /** Cookies are `Secure` when the public URL is https. */
  secure: boolean;
}

const viewers = new WeakMap<FastifyRequest, Viewer>();

/** The viewer of a request that passed the guard. */
export function viewerOf(request: FastifyRequest): Viewer {
  const viewer = viewers.get(request);
  if (!viewer) throw new Error(`${request.method} ${request.routeOptions.url} is a console page registered outside the guard`);
  return viewer;
}

/**
 * Guards every route of `app` (an encapsulated scope of console pages): without a live staff
 * session a page is a 303 to the sign-in page, which comes back to it (a POST to the sign-in page
 * alone); a POST without this session's CSRF token (`_csrf`) is a 403 and reaches no handler. Each
 * handler then finds its viewer with `viewerOf`. Refusals (403, 404, 409, 422, 429…) are pages in
 * the console's frame; a 5xx goes on to the application's handler.
 */
export function guardPages(app: FastifyInstance, deps: GuardDeps): void {
  const csrf = createCsrf(deps.secrets, deps.secure);

  app.addHook('preHandler', async (request, reply) => {
    const session = await deps.auth.current(cookiesOf(request)[SESSION_COOKIE]);
    await request.countQuota?.(session ? 'default' : 'anonymous', session ? `session:${session.session.id}` : `console:ip:${request.ip}`);
    if (!session) {
      const read = request.method === 'GET' || request.method === 'HEAD';
      return seeOther(reply, read ? `/console/sign-in?next=${encodeURIComponent(request.url)}` : '/console/sign-in');
    }
    const { user } = session;
    const ctx = consoleContext(request, { id: user.id, name: user.name, effective_permissions: user.permissions });
    const { timezone } = await deps.organization.get(ctx);
    viewers.set(request, {
      user: { id: user.id, name: user.name, email: user.email, permissions: user.permissions },
      ctx,
      csrf: csrf.token(request, reply, session),
      timeZone: timezone,
    });
    if (request.method === 'POST') csrf.check(request, session);
  });

  app.setErrorHandler(async (error, request, reply) => {
    const mapped: AppError = toAppError(error);
    if (mapped.status >= 500) throw error;
    for (const [name, value] of Object.entries(mapped.headers)) reply.header(name, value);
    const viewer = viewers.get(request);
    return sendPage(reply, mapped.status, ErrorPage({ viewer, error: mapped, back: viewer?.back }));
  });
}

/** A list page's `page` and `per_page` as the list kit reads them: numbers, or absent when not in the URL. */
export function pageParams(query: { page?: string | undefined; per_page?: string | undefined }): {
  page: number | undefined;
  per_page: number | undefined;
} {
  return {
    page: query.page === undefined ? undefined : Number(query.page),
    per_page: query.per_page === undefined ? undefined : Number(query.per_page),
  };
}
