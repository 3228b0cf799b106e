import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Access } from '../../http/access.ts';
import { AppError, NotFoundError, ValidationError } from '../../platform/errors.ts';
import type { SecretBox } from '../../platform/secrets/box.ts';
import type { PasskeyService } from './passkeys.ts';
import type { PasskeyRow, SessionWithUser } from './repository.ts';
import type { RequestMeta, StaffAuthService } from './service.ts';
import {
  buttonForm,
  type Csrf,
  clearedSessionCookie,
  cookiesOf,
  createCsrf,
  csrfField,
  FAVICON,
  field,
  formOf,
  type Html,
  html,
  SCRIPT,
  SESSION_COOKIE,
  STYLESHEET,
  safeNext,
  sendPage,
  sessionCookie,
  WEBAUTHN_SCRIPT,
} from './web.ts';

/** The signed-in user's own page: their sessions, passkeys and password (the console's home is `/console`). */
export const ACCOUNT_PATH = '/console/account';

/** Pages anyone may open: counted per client address, apart from the API's anonymous requests. */
const PAGE: Access = { public: 'anonymous', counter: 'console' };
/** Forms that try a password or send mail: the stricter per-address limit of public routes. */
const ATTEMPT: Access = { public: 'public', counter: 'sign-in' };

/** What a page is given of the request: who is signed in (if anyone) and its CSRF token. */
interface Seen {
  session: SessionWithUser | null;
  csrf: string;
}

export interface ConsoleAuthDeps {
  auth: StaffAuthService;
  passkeys: PasskeyService;
  /** Other ways in, shown under the sign-in form (single sign-on's button), for the `next` it keeps. */
  otherSignIns?: ((next: string) => Html) | undefined;
  secrets: Pick<SecretBox, 'mac' | 'verifyMac'>;
  /** Cookies are `Secure` when the public URL is https. */
  secure: boolean;
}

export function metaOf(request: FastifyRequest): RequestMeta {
  const agent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof agent === 'string' ? agent : null };
}

/** Registers the form parser of the console's pages in `app`'s scope. */
export function acceptForms(app: FastifyInstance): void {
  if (app.hasContentTypeParser('application/x-www-form-urlencoded')) return;
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
}

/**
 * Staff sign-in on the web (CONTRACT, "Staff sign-in and the console"): the sign-in page, the user's
 * own account page (`/console/account`: their sessions, passkeys and password), sign-out, and the
 * password reset by email. Every POST
 * carries a CSRF token (`_csrf`); without a valid one it is a 403 and changes nothing.
 */
export function consoleAuthPages(deps: ConsoleAuthDeps): FastifyPluginAsync {
  const { auth } = deps;
  const csrf: Csrf = createCsrf(deps.secrets, deps.secure);
  const hide = { hide: true };

  const current = (request: FastifyRequest) => auth.current(cookiesOf(request)[SESSION_COOKIE]);
  const seen = async (request: FastifyRequest, reply: FastifyReply): Promise<Seen> => {
    const session = await current(request);
    return { session, csrf: csrf.token(request, reply, session) };
  };
  const signInUrl = (request: FastifyRequest) => `/console/sign-in?next=${encodeURIComponent(request.url)}`;

  function signInPage(reply: FastifyReply, status: number, token: string, next: string, message?: Html) {
    return sendPage(
      reply,
      status,
      'Sign in',
      html`${message ?? ''}<form method="post" action="/console/sign-in">${csrfField(token)}<input type="hidden" name="next" value="${next}">${field({ name: 'email', label: 'Email', type: 'email', autocomplete: 'username' })}${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'current-password' })}<button type="submit" class="primary">Sign in</button></form>${passkeyForm({ kind: 'sign-in', options: '/console/sign-in/passkey/options', action: '/console/sign-in/passkey', csrf: token, hidden: html`<input type="hidden" name="next" value="${next}">`, button: 'Sign in with a passkey', failure: 'That passkey cannot sign in here. Try again, or use your password.' })}${deps.otherSignIns ? html`<p>${deps.otherSignIns(next)}</p>` : ''}<p><a href="/console/password/forgot">Forgot your password?</a></p>`,
    );
  }

  function homePage(
    reply: FastifyReply,
    signedIn: SessionWithUser,
    token: string,
    sessions: Awaited<ReturnType<StaffAuthService['sessions']>>,
    passkeys: PasskeyRow[],
    errors: Record<string, string> = {},
    status = 200,
    notice?: string,
  ) {
    const { user, session } = signedIn;
    const rows = sessions.map(
      (row) =>
        html`<tr><td>${shortTime(row.created_at)}</td><td>${row.method}</td><td>${row.user_agent ?? 'unknown browser'}</td><td>${row.id === session.id ? 'this one' : buttonForm(`/console/sessions/${row.id}/end`, 'End', token)}</td></tr>`,
    );
    const permissions = user.permissions.length ? user.permissions.join(', ') : 'none (you may read everything)';
    return sendPage(
      reply,
      status,
      'Your account',
      html`${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}<p><a href="/console">← The console</a></p><p>Signed in as <strong>${user.name}</strong> (${user.email}).</p><p>You may: ${permissions}.</p>${buttonForm('/console/sign-out', 'Sign out', token, 'primary')}
<h2>Your sessions</h2><table><thead><tr><th scope="col">Signed in</th><th scope="col">How</th><th scope="col">Browser</th><th scope="col"></th></tr></thead><tbody>${rows}</tbody></table>${sessions.length > 1 ? buttonForm('/console/sessions/end-others', 'Sign out everywhere else', token) : ''}

<h2>Passkeys</h2><p>Sign in with your device's screen lock or a security key instead of your password.</p>${
        passkeys.length
          ? html`<table><thead><tr><th scope="col">Name</th><th scope="col">Added</th><th scope="col">Last used</th><th scope="col"></th></tr></thead><tbody>${passkeys.map(
              (row) =>
                html`<tr><td>${row.name}</td><td>${shortTime(row.created_at)}</td><td>${row.last_used_at ? shortTime(row.last_used_at) : 'never'}</td><td>${buttonForm(`/console/passkeys/${row.id}/remove`, 'Remove', token)}</td></tr>`,
            )}</tbody></table>`
          : html`<p>You have no passkey yet.</p>`
      }${passkeyForm({ kind: 'register', options: '/console/passkeys/options', action: '/console/passkeys', csrf: token, hidden: field({ name: 'name', label: 'Name of the new passkey', hint: 'Where it lives, e.g. “Work laptop”.', value: 'Passkey' }), button: 'Add a passkey', failure: 'The passkey could not be added. Try again.' })}<noscript><p class="hint">Adding a passkey needs JavaScript.</p></noscript>
<h2>Change your password</h2><form method="post" action="/console/password">${csrfField(token)}${field({ name: 'current_password', label: 'Current password', type: 'password', autocomplete: 'current-password', error: errors.current_password })}${field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', hint: 'At least 12 characters, not easy to guess.', error: errors.password })}${field({ name: 'password_confirmation', label: 'New password again', type: 'password', autocomplete: 'new-password', error: errors.password_confirmation })}<button type="submit" class="primary">Change the password</button></form>`,
      signedIn,
    );
  }

  /** The signed-in user, or a redirect to the sign-in page (undefined then: the answer is sent). */
  async function signedIn(request: FastifyRequest, reply: FastifyReply): Promise<(Seen & { session: SessionWithUser }) | undefined> {
    const found = await seen(request, reply);
    if (found.session) return found as Seen & { session: SessionWithUser };
    void reply.code(303).header('location', signInUrl(request)).header('cache-control', 'no-store').send();
    return undefined;
  }

  /** A POST of a signed-in user: the session, after its CSRF token is checked (403 otherwise). */
  async function signedInPost(request: FastifyRequest, reply: FastifyReply): Promise<SessionWithUser | undefined> {
    const session = await current(request);
    if (!session) {
      void reply.code(303).header('location', '/console/sign-in').send();
      return undefined;
    }
    csrf.check(request, session);
    return session;
  }

  return async (app) => {
    acceptForms(app);
    renderErrorsAsPages(app);

    app.get('/console/assets/console.css', { config: { access: 'open' }, schema: hide }, async (_request, reply) =>
      reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(STYLESHEET),
    );

    app.get('/console/assets/console.js', { config: { access: 'open' }, schema: hide }, async (_request, reply) =>
      reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(SCRIPT),
    );

    app.get('/console/assets/webauthn.js', { config: { access: 'open' }, schema: hide }, async (_request, reply) =>
      reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(WEBAUTHN_SCRIPT),
    );

    app.get('/console/assets/favicon.svg', { config: { access: 'open' }, schema: hide }, async (_request, reply) =>
      reply.header('content-type', 'image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON),
    );

    app.get(ACCOUNT_PATH, { config: { access: PAGE }, schema: hide }, async (request, reply) => {
      const found = await signedIn(request, reply);
      if (!found) return reply;
      return homePage(
        reply,
        found.session,
        found.csrf,
        await auth.sessions(found.session.user.id),
        await deps.passkeys.list(found.session.user.id),
      );
    });

    app.get<{ Querystring: { next?: string } }>('/console/sign-in', { config: { access: PAGE }, schema: hide }, async (request, reply) => {
      const found = await seen(request, reply);
      const next = safeNext(request.query.next);
      if (found.session) return reply.code(303).header('location', next).send();
      return signInPage(reply, 200, found.csrf, next);
    });

    app.post('/console/sign-in', { config: { access: ATTEMPT }, schema: hide }, async (request, reply) => {
      csrf.check(request, null);
      const form = formOf(request);
      const next = safeNext(form.next);
      const outcome = await auth.signIn(form.email ?? '', form.password ?? '', metaOf(request), request.ctx);
      const token = csrf.token(request, reply, null);
      if (outcome.kind === 'wait') {
        reply.header('retry-after', String(outcome.retryAfterSeconds));
        return signInPage(
          reply,
          429,
          token,
          next,
          html`<p class="alert" role="alert">Too many failed attempts for this email. Try again in a few minutes.</p>`,
        );
      }
      if (outcome.kind === 'failed') {
        return signInPage(
          reply,
          401,
          token,
          next,
          html`<p class="alert" role="alert">The email or password is not right, or the account cannot sign in.</p>`,
        );
      }
      return reply.code(303).header('set-cookie', sessionCookie(outcome.started.id, deps.secure)).header('location', next).send();
    });

    app.post('/console/sign-out', { config: { access: PAGE }, schema: hide }, async (request, reply) => {
      const session = await signedInPost(request, reply);
      if (!session) return reply;
      await auth.signOut(session, request.ctx);
      return reply.code(303).header('set-cookie', clearedSessionCookie(deps.secure)).header('location', '/console/sign-in').send();
    });

    app.post<{ Params: { id: string } }>(
      '/console/sessions/:id/end',
      { config: { access: PAGE }, schema: hide },
      async (request, reply) => {
        const session = await signedInPost(request, reply);
        if (!session) return reply;
        const id = /^[1-9][0-9]{0,15}$/.test(request.params.id) ? Number(request.params.id) : Number.NaN;
        if (!Number.isSafeInteger(id)) throw new NotFoundError();
        await auth.endOwn(session, id, request.ctx);
        return reply.code(303).header('location', ACCOUNT_PATH).send();
      },
    );

    app.post('/console/sessions/end-others', { config: { access: PAGE }, schema: hide }, async (request, reply) => {
      const session = await signedInPost(request, reply);
      if (!session) return reply;
      await auth.endOthers(session, request.ctx);
      return reply.code(303).header('location', ACCOUNT_PATH).send();
    });

    app.post('/console/password', { config: { access: ATTEMPT }, schema: hide }, async (request, reply) => {
      const session = await signedInPost(request, reply);
      if (!session) return reply;
      const form = formOf(request);
      const token = csrf.token(request, reply, session);
      try {
        await auth.changePassword(
          session,
          { current: form.current_password ?? '', password: form.password ?? '', confirmation: form.password_confirmation ?? '' },
          request.ctx,
        );
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        return homePage(
          reply,
          session,
          token,
          await auth.sessions(session.user.id),
          await deps.passkeys.list(session.user.id),
          firstErrors(error),
          422,
        );
      }
      return homePage(
        reply,
        session,
        token,
        await auth.sessions(session.user.id),
        await deps.passkeys.list(session.user.id),
        {},
        200,
        'Your password is changed; your other sessions have ended.',
      );
    });

    app.get('/console/password/forgot', { config: { access: PAGE }, schema: hide }, async (request, reply) => {
      const { csrf: token } = await seen(request, reply);
      return forgotPage(reply, token);
    });

    app.post('/console/password/forgot', { config: { access: ATTEMPT }, schema: hide }, async (request, reply) => {
      csrf.check(request, await current(request));
      await auth.requestReset(request.ctx, formOf(request).email ?? '');
      return sendPage(
        reply,
        200,
        'Check your email',
        html`<p class="notice" role="status">If that email belongs to a staff account, a link to set a new password is on its way. It works once, for 30 minutes.</p><p><a href="/console/sign-in">Back to sign-in</a></p>`,
      );
    });

    app.get<{ Querystring: { token?: string } }>(
      '/console/password/reset',
      { config: { access: ATTEMPT }, schema: hide },
      async (request, reply) => {
        const token = typeof request.query.token === 'string' ? request.query.token : '';
        const { csrf: csrfToken } = await seen(request, reply);
        if (!(await auth.resetFor(token))) return invalidResetPage(reply);
        return resetPage(reply, 200, csrfToken, token);
      },
    );

    app.post('/console/password/reset', { config: { access: ATTEMPT }, schema: hide }, async (request, reply) => {
      csrf.check(request, await current(request));
      const form = formOf(request);
      const token = form.token ?? '';
      try {
        const started = await auth.resetPassword(
          token,
          form.password ?? '',
          form.password_confirmation ?? '',
          metaOf(request),
          request.ctx,
        );
        if (!started) return invalidResetPage(reply);
        return reply.code(303).header('set-cookie', sessionCookie(started.id, deps.secure)).header('location', '/console').send();
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        return resetPage(reply, 422, csrf.token(request, reply, null), token, firstErrors(error));
      }
    });
  };

  function forgotPage(reply: FastifyReply, token: string) {
    return sendPage(
      reply,
      200,
      'Forgot your password?',
      html`<p>Enter the email of your staff account: we will send a link to set a new password.</p><form method="post" action="/console/password/forgot">${csrfField(token)}${field({ name: 'email', label: 'Email', type: 'email', autocomplete: 'username' })}<button type="submit" class="primary">Send the link</button></form>`,
    );
  }

  function resetPage(reply: FastifyReply, status: number, csrfToken: string, token: string, errors: Record<string, string> = {}) {
    return sendPage(
      reply,
      status,
      'Set a new password',
      html`<form method="post" action="/console/password/reset">${csrfField(csrfToken)}<input type="hidden" name="token" value="${token}">${field({ name: 'password', label: 'New password', type: 'password', autocomplete: 'new-password', hint: 'At least 12 characters, not easy to guess.', error: errors.password })}${field({ name: 'password_confirmation', label: 'New password again', type: 'password', autocomplete: 'new-password', error: errors.password_confirmation })}<button type="submit" class="primary">Set the password and sign in</button></form>`,
    );
  }

  function invalidResetPage(reply: FastifyReply) {
    return sendPage(
      reply,
      404,
      'Link not valid',
      html`<p>This link does not work any more: it was used already, has expired or was replaced. <a href="/console/password/forgot">Ask for a new one.</a></p>`,
    );
  }
}

/**
 * Refusals on a page are pages too (a 403 for a form without its CSRF token, a 404, a 429 with its
 * Retry-After); anything else goes to the application's handler (a 500, a 503), as JSON.
 */
export function renderErrorsAsPages(app: FastifyInstance): void {
  const titles: Record<number, string> = {
    403: 'Not allowed',
    404: 'Not found',
    413: 'Too large',
    415: 'Not a form',
    429: 'Too many requests',
  };
  app.setErrorHandler((error, _request, reply) => {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    return sendPage(reply, error.status, titles[error.status] ?? 'Not possible', html`<p class="alert" role="alert">${error.message}</p>`);
  });
}

/** The first message of each field of a 422, for the form. */
export function firstErrors(error: ValidationError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, messages] of Object.entries((error.details ?? {}) as Record<string, string[]>)) {
    if (messages[0]) out[name] = messages[0];
  }
  return out;
}

/** A time as the console shows it for now: to the minute, in UTC. */
function shortTime(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * A passkey form: hidden, and shown by the console's script only where the browser can use passkeys.
 * Its fields go with the request for options (`options`) and with the authenticator's answer (`action`).
 */
export function passkeyForm(form: {
  kind: 'register' | 'sign-in';
  options: string;
  action: string;
  csrf: string;
  hidden: Html;
  button: string;
  failure: string;
}): Html {
  return html`<form method="post" action="${form.action}" data-passkey="${form.kind}" data-options="${form.options}" data-failure="${form.failure}" hidden>${csrfField(form.csrf)}${form.hidden}<button type="submit" class="secondary">${form.button}</button><p class="hint" role="status"></p></form>`;
}
