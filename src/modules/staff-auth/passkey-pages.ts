import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Access } from '../../http/access.ts';
import { AppError, NotFoundError } from '../../platform/errors.ts';
import type { UserService } from '../users/service.ts';
import { startAccepted } from './invitation.ts';
import { ACCOUNT_PATH, acceptForms, type ConsoleAuthDeps, metaOf, renderErrorsAsPages } from './pages.ts';
import type { PasskeyService, RelyingParty } from './passkeys.ts';
import type { SessionWithUser } from './repository.ts';
import type { StartedSession } from './service.ts';
import { cookiesOf, createCsrf, SESSION_COOKIE, safeNext, sessionCookie } from './web.ts';

/** Tries a credential or uses an invitation: the stricter per-address limit of public routes. */
const ATTEMPT: Access = { public: 'public', counter: 'sign-in' };
const PAGE: Access = { public: 'anonymous', counter: 'console' };

export interface PasskeyPagesDeps extends ConsoleAuthDeps {
  passkeys: PasskeyService;
  users: UserService;
  organizationName: () => Promise<string>;
  /** ACADEMY_PUBLIC_URL: the site passkeys belong to; otherwise the origin the browser used. */
  publicUrl: string | null;
}

/** The JSON a passkey route is sent by the console's script: the form's fields and the authenticator's answer. */
type Body = Record<string, unknown> & { response?: unknown };

/**
 * The console's passkey routes (CONTRACT, "Staff sign-in and the console"). The pages' script asks
 * for options, lets the browser talk to the authenticator, and posts the answer back; each POST
 * carries the page's CSRF token in `_csrf` like a form. Answers are JSON: `{ options }`, then
 * `{ location }` where the browser goes next, or `{ message }` with a 4xx. Served with the console
 * only (passkeys are used on its pages).
 */
export function passkeyPages(deps: PasskeyPagesDeps): FastifyPluginAsync {
  const { auth, passkeys, users } = deps;
  const csrf = createCsrf(deps.secrets, deps.secure);
  const hide = { hide: true };

  async function relyingParty(request: FastifyRequest): Promise<RelyingParty> {
    const url = new URL(deps.publicUrl ?? `${request.protocol}://${request.host}`);
    return { id: url.hostname, origin: url.origin, name: await deps.organizationName() };
  }
  const bodyOf = (request: FastifyRequest): Body => (request.body && typeof request.body === 'object' ? (request.body as Body) : {});
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const answer = (reply: FastifyReply, status: number, body: object) => reply.code(status).header('cache-control', 'no-store').send(body);

  /** The signed-in user of a POST, after its CSRF token is checked; a 401 (JSON) without a session. */
  async function signedIn(request: FastifyRequest): Promise<SessionWithUser> {
    const session = await auth.current(cookiesOf(request)[SESSION_COOKIE]);
    if (!session) throw new AppError(401, 'unauthenticated', 'Sign in again: your session has ended.');
    csrf.check(request, session);
    return session;
  }

  /** Refusals are JSON here (the script shows their message); other errors go to the application's handler. */
  function refusal(reply: FastifyReply, error: unknown) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    return answer(reply, error.status, { message: error.message });
  }

  return async (app) => {
    acceptForms(app);
    renderErrorsAsPages(app);

    app.post('/console/passkeys/options', { config: { access: PAGE }, schema: hide }, async (request, reply) => {
      try {
        const { user } = await signedIn(request);
        return answer(reply, 200, { options: await passkeys.registrationOptions(user, await relyingParty(request)) });
      } catch (error) {
        return refusal(reply, error);
      }
    });

    app.post('/console/passkeys', { config: { access: PAGE }, schema: hide }, async (request, reply) => {
      try {
        const { user } = await signedIn(request);
        const body = bodyOf(request);
        await passkeys.register(user, body.response as RegistrationResponseJSON, text(body.name), await relyingParty(request), request.ctx);
        return answer(reply, 201, { location: ACCOUNT_PATH });
      } catch (error) {
        return refusal(reply, error);
      }
    });

    app.post<{ Params: { id: string } }>(
      '/console/passkeys/:id/remove',
      { config: { access: PAGE }, schema: hide },
      async (request, reply) => {
        const session = await auth.current(cookiesOf(request)[SESSION_COOKIE]);
        if (!session) return reply.code(303).header('location', '/console/sign-in').send();
        csrf.check(request, session);
        const id = /^[1-9][0-9]{0,15}$/.test(request.params.id) ? Number(request.params.id) : Number.NaN;
        if (!Number.isSafeInteger(id)) throw new NotFoundError();
        await passkeys.remove(session.user, id, request.ctx);
        return reply.code(303).header('location', ACCOUNT_PATH).send();
      },
    );

    app.post('/console/sign-in/passkey/options', { config: { access: ATTEMPT }, schema: hide }, async (request, reply) => {
      try {
        csrf.check(request, null);
        return answer(reply, 200, { options: await passkeys.authenticationOptions(await relyingParty(request)) });
      } catch (error) {
        return refusal(reply, error);
      }
    });

    app.post('/console/sign-in/passkey', { config: { access: ATTEMPT }, schema: hide }, async (request, reply) => {
      try {
        csrf.check(request, null);
        const body = bodyOf(request);
        const outcome = await passkeys.signIn(
          body.response as AuthenticationResponseJSON,
          await relyingParty(request),
          metaOf(request),
          request.ctx,
        );
        if (outcome.kind === 'failed') {
          return answer(reply, 401, { message: 'That passkey cannot sign in here. Try again, or use your password.' });
        }
        reply.header('set-cookie', sessionCookie(outcome.started.id, deps.secure));
        return answer(reply, 200, { location: safeNext(body.next) });
      } catch (error) {
        return refusal(reply, error);
      }
    });

    // An invitation accepted with a passkey instead of a password: the link's token names the user.
    app.post('/invitations/accept/passkey/options', { config: { access: ATTEMPT }, schema: hide }, async (request, reply) => {
      try {
        csrf.check(request, null);
        const invited = await users.invitation(request.ctx, text(bodyOf(request).token));
        return answer(reply, 200, { options: await passkeys.registrationOptions(invited, await relyingParty(request)) });
      } catch (error) {
        return refusal(reply, error);
      }
    });

    app.post('/invitations/accept/passkey', { config: { access: ATTEMPT }, schema: hide }, async (request, reply) => {
      try {
        csrf.check(request, null);
        const body = bodyOf(request);
        const token = text(body.token);
        const invited = await users.invitation(request.ctx, token);
        // Verified before the link is used up: an answer not to trust leaves the invitation working.
        const passkey = await passkeys.verifyNew(invited, body.response as RegistrationResponseJSON, await relyingParty(request));
        let started: StartedSession | undefined;
        await users.acceptInvitation(request.ctx, token, async (trx, user) => {
          await passkeys.keep(trx, user, passkey, text(body.name), request.ctx);
          started = await startAccepted(auth, trx, user, request);
        });
        reply.header('set-cookie', sessionCookie((started as StartedSession).id, deps.secure));
        return answer(reply, 200, { location: '/console' });
      } catch (error) {
        return refusal(reply, error);
      }
    });
  };
}
