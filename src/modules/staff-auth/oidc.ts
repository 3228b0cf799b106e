import { stringifySetCookie } from 'cookie';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Access } from '../../http/access.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SecretBox } from '../../platform/secrets/box.ts';
import { createOidcService, type OidcRequest, type OidcService, ProviderUnavailableError } from './oidc-service.ts';
import { metaOf, renderErrorsAsPages } from './pages.ts';
import { createStaffAuthRepository } from './repository.ts';
import type { StaffAuthService } from './service.ts';
import { cookiesOf, type Html, html, SESSION_COOKIE, safeNext, sendPage, sessionCookie } from './web.ts';

/** Starts or finishes a sign-in: the stricter per-address limit of public routes, counted with the password's. */
const ATTEMPT: Access = { public: 'public', counter: 'sign-in' };
const START = '/console/sign-in/oidc';
const CALLBACK = '/console/sign-in/oidc/callback';
/** What a sign-in started keeps in the browser until the provider sends it back. */
const STATE_COOKIE = 'academy_oidc';
/** How long the browser may stay at the provider. */
const STATE_TTL_MS = 10 * 60_000;
/** The MAC's purpose: a MAC made under the secret key for another purpose (CSRF) is worth nothing here. */
const MAC_PURPOSE = 'oidc-state';

/** The sign-in page's link to single sign-on, styled as a button, keeping where the user was going. */
export function oidcButton(name: string, next: string): Html {
  return html`<a class="button" href="${START}?next=${encodeURIComponent(safeNext(next))}">Sign in with ${name}</a>`;
}

export interface OidcPagesDeps {
  oidc: OidcService;
  auth: Pick<StaffAuthService, 'current'>;
  secrets: Pick<SecretBox, 'mac' | 'verifyMac'>;
  clock: Clock;
  /** Cookies are `Secure` when the public URL is https. */
  secure: boolean;
  /** ACADEMY_PUBLIC_URL: the callback is under it; otherwise under the origin the browser used. */
  publicUrl: string | null;
}

/** The state cookie's content: the sign-in's secrets, where to go after it, and when it lapses. */
interface Pending extends OidcRequest {
  next: string;
  expires: number;
}

/**
 * Single sign-on with OpenID Connect for staff (CONTRACT, "Staff sign-in and the console"): the
 * sign-in page's button opens START, which sends the browser to the provider; the provider sends it
 * back to CALLBACK with a code. State, nonce and the PKCE verifier wait in a cookie that only this
 * server can have written (a MAC under the secret key), bound to the callback's path, for ten minutes,
 * and cleared at the callback whatever its outcome. No account is ever created here.
 */
export function oidcPages(deps: OidcPagesDeps): FastifyPluginAsync {
  const { oidc } = deps;
  const hide = { hide: true };

  const stateCookie = (value: string, maxAgeMs: number) =>
    stringifySetCookie({
      name: STATE_COOKIE,
      value,
      httpOnly: true,
      sameSite: 'lax',
      path: START,
      secure: deps.secure,
      maxAge: Math.floor(maxAgeMs / 1000),
    });
  const cleared = () => stateCookie('', 0);

  function seal(pending: Pending): string {
    const payload = Buffer.from(JSON.stringify(pending)).toString('base64url');
    return `${payload}.${deps.secrets.mac(MAC_PURPOSE, payload)}`;
  }

  /** The cookie's content when this server wrote it and it has not lapsed; null otherwise. */
  function open(value: string | undefined): Pending | null {
    if (!value || value.length > 4096) return null;
    const [payload = '', mac = '', ...rest] = value.split('.');
    if (rest.length > 0 || !deps.secrets.verifyMac(MAC_PURPOSE, payload, mac)) return null;
    try {
      const pending = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Pending;
      return pending.expires > deps.clock.epochMs() ? pending : null;
    } catch {
      return null;
    }
  }

  const signInLink = (next: string) =>
    html`<p>${oidcButton(oidc.name, next)}</p><p><a href="/console/sign-in?next=${encodeURIComponent(next)}">Sign in with a password</a></p>`;

  function refused(reply: FastifyReply, next: string) {
    return sendPage(
      reply.header('set-cookie', cleared()),
      401,
      'Sign in',
      html`<p class="alert" role="alert">Single sign-on did not let you in: the account you used at ${oidc.name} must have a verified email that belongs to an active staff account here.</p>${signInLink(next)}`,
    );
  }

  function unavailable(reply: FastifyReply, next: string) {
    return sendPage(
      reply.header('set-cookie', cleared()).header('retry-after', '30'),
      503,
      'Single sign-on is unavailable',
      html`<p class="alert" role="alert">${oidc.name} cannot be reached just now. Try again in a moment, or sign in with your password.</p>${signInLink(next)}`,
    );
  }

  /** Where the provider sends the browser back; the token request names it again. */
  const redirectUri = (request: FastifyRequest) => `${deps.publicUrl ?? `${request.protocol}://${request.host}`}${CALLBACK}`;

  return async (app) => {
    renderErrorsAsPages(app);

    app.get<{ Querystring: { next?: string } }>(START, { config: { access: ATTEMPT }, schema: hide }, async (request, reply) => {
      const next = safeNext(request.query.next);
      if (await deps.auth.current(cookiesOf(request)[SESSION_COOKIE])) return reply.code(303).header('location', next).send();
      let started: Awaited<ReturnType<OidcService['begin']>>;
      try {
        started = await oidc.begin(redirectUri(request));
      } catch (error) {
        if (error instanceof ProviderUnavailableError) return unavailable(reply, next);
        throw error;
      }
      const pending: Pending = { ...started.request, next, expires: deps.clock.epochMs() + STATE_TTL_MS };
      return reply
        .code(303)
        .header('set-cookie', stateCookie(seal(pending), STATE_TTL_MS))
        .header('cache-control', 'no-store')
        .header('location', started.url.href)
        .send();
    });

    app.get(CALLBACK, { config: { access: ATTEMPT }, schema: hide }, async (request, reply) => {
      const query = new URL(request.url, 'http://callback.invalid').searchParams;
      const pending = open(cookiesOf(request)[STATE_COOKIE]);
      const state = query.get('state');
      if (!pending || !state || state !== pending.state) {
        return sendPage(
          reply.header('set-cookie', cleared()),
          400,
          'Sign-in not recognised',
          html`<p class="alert" role="alert">This sign-in did not start here, was used already or took longer than ten minutes. Start again.</p>${signInLink('/console')}`,
        );
      }
      try {
        const outcome = await oidc.finish(pending, query, metaOf(request), request.ctx);
        if (outcome.kind === 'failed') return refused(reply, pending.next);
        return reply
          .code(303)
          .header('set-cookie', [cleared(), sessionCookie(outcome.started.id, deps.secure)])
          .header('location', pending.next)
          .send();
      } catch (error) {
        if (error instanceof ProviderUnavailableError) return unavailable(reply, pending.next);
        throw error;
      }
    });
  };
}

/** The single sign-on pages of a process with their service, or null when ACADEMY_OIDC_* are not set. */
export function singleSignOnPages(platform: Platform, staffAuth: StaffAuthService): FastifyPluginAsync | null {
  const { config } = platform;
  if (!config.oidc) return null;
  const oidc = createOidcService({
    settings: config.oidc,
    db: platform.database.db,
    auth: createStaffAuthRepository(platform.database.db),
    sessions: staffAuth,
    logger: platform.logger,
    // The configuration allows a plain-http issuer on this machine only (a provider tried locally).
    allowInsecureIssuer: new URL(config.oidc.issuer).protocol === 'http:',
  });
  return oidcPages({
    oidc,
    auth: staffAuth,
    secrets: platform.secrets,
    clock: platform.clock,
    secure: config.publicUrl?.startsWith('https:') ?? false,
    publicUrl: config.publicUrl,
  });
}
