import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Access } from '../../http/access.ts';
import { recordAudit } from '../../platform/audit.ts';
import { NotFoundError, ValidationError } from '../../platform/errors.ts';
import type { User } from '../users/schemas.ts';
import type { UserService } from '../users/service.ts';
import { acceptForms, type ConsoleAuthDeps, firstErrors, metaOf, passkeyForm, renderErrorsAsPages } from './pages.ts';
import { acting, type StaffAuthService, type StartedSession } from './service.ts';
import { createCsrf, csrfField, field, formOf, html, sendPage, sessionCookie } from './web.ts';

/** Counted per client address, apart from certificate verification's (policy `public`). */
const ACCESS: Access = { public: 'public', counter: 'invitations' };

/**
 * The page an invitation email links to (the default ACADEMY_INVITE_URL): opening the link shows
 * whom it is for and a form to choose a password; only sending the form (a POST) uses the link up,
 * activates the user and signs them in. Mail scanners and link previews open links, so a GET never
 * uses the token up. The token is in the URL: the page sends no Referer and is never cached.
 */
export function invitationPages(
  deps: ConsoleAuthDeps & { users: UserService; organizationName: () => Promise<string>; console: boolean },
): FastifyPluginAsync {
  const { users, auth } = deps;
  const csrf = createCsrf(deps.secrets, deps.secure);
  const hide = { hide: true };

  const invalid = (reply: FastifyReply) =>
    sendPage(
      reply,
      404,
      'Invitation not valid',
      html`<p>This invitation link does not work any more: it was used already, has expired or was replaced by a newer one. Ask for a new invitation.</p>`,
    );

  function form(
    reply: FastifyReply,
    status: number,
    who: { name: string; email: string },
    organization: string,
    csrfToken: string,
    token: string,
    errors: Record<string, string> = {},
  ) {
    return sendPage(
      reply,
      status,
      `Join ${organization}`,
      html`<p>${who.name} (${who.email}), choose a password to activate your account at ${organization} and sign in.</p><form method="post" action="accept">${csrfField(csrfToken)}<input type="hidden" name="token" value="${token}"><input type="hidden" name="email" value="${who.email}" autocomplete="username">${field({ name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password', hint: 'At least 12 characters, not easy to guess.', error: errors.password })}${field({ name: 'password_confirmation', label: 'Password again', type: 'password', autocomplete: 'new-password', error: errors.password_confirmation })}<button type="submit" class="primary">Activate my account</button></form>${
        deps.console
          ? html`<h2>Or use a passkey</h2>${passkeyForm({ kind: 'register', options: '/invitations/accept/passkey/options', action: '/invitations/accept/passkey', csrf: csrfToken, hidden: html`<input type="hidden" name="token" value="${token}"><input type="hidden" name="name" value="Passkey">`, button: 'Activate with a passkey', failure: 'The passkey could not be registered. Try again, or choose a password.' })}`
          : ''
      }`,
    );
  }

  return async (app) => {
    acceptForms(app);
    renderErrorsAsPages(app);

    app.get<{ Querystring: { token?: string } }>(
      '/invitations/accept',
      { config: { access: ACCESS }, schema: hide },
      async (request, reply) => {
        const token = typeof request.query.token === 'string' ? request.query.token : '';
        try {
          const user = await users.invitation(request.ctx, token);
          return form(reply, 200, user, await deps.organizationName(), csrf.token(request, reply, null), token);
        } catch (error) {
          if (error instanceof NotFoundError) return invalid(reply);
          throw error;
        }
      },
    );

    app.post('/invitations/accept', { config: { access: ACCESS }, schema: hide }, async (request, reply) => {
      csrf.check(request, null);
      const fields = formOf(request);
      const token = fields.token ?? '';
      const password = fields.password ?? '';
      let started: StartedSession | undefined;
      try {
        // The password is checked against the user before the link is used up: a weak one leaves it working.
        const invited = await users.invitation(request.ctx, token);
        await auth.checkNew(invited, password, fields.password_confirmation ?? '');
        await users.acceptInvitation(request.ctx, token, async (trx, user) => {
          await auth.setPassword(trx, user.id, password);
          started = await startAccepted(auth, trx, user, request);
        });
      } catch (error) {
        if (error instanceof NotFoundError) return invalid(reply);
        if (!(error instanceof ValidationError)) throw error;
        const invited = await users.invitation(request.ctx, token).catch(() => null);
        if (!invited) return invalid(reply);
        return form(reply, 422, invited, await deps.organizationName(), csrf.token(request, reply, null), token, firstErrors(error));
      }
      const session = started as StartedSession;
      reply.header('set-cookie', sessionCookie(session.id, deps.secure));
      if (deps.console) return reply.code(303).header('location', '/console').send();
      return sendPage(reply, 200, 'Your account is active', html`<p>Welcome, ${session.user.name}. Your account is active.</p>`);
    });
  };
}

/** Signs in a user who just accepted their invitation, in the acceptance's transaction (with its audit event). */
export async function startAccepted(auth: StaffAuthService, trx: Kysely<DB>, user: User, request: FastifyRequest): Promise<StartedSession> {
  const credentials = { ...user, passwordHash: null, permissions: user.effective_permissions };
  const started = await auth.start(trx, credentials, 'invitation', metaOf(request));
  await recordAudit(trx, acting(request.ctx, user), {
    action: 'session.signed_in',
    subject: { type: 'user', id: user.id },
    changes: { method: [null, 'invitation'] },
  });
  return started;
}
