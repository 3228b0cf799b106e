import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { ServiceContext } from '../platform/context.ts';
import type { Permission } from '../platform/permissions.ts';
import type { Platform } from '../platform/platform.ts';
import { withRequestId } from '../platform/trace.ts';
import { isRead } from './methods.ts';
import { hookList } from './route-hooks.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The context of the service calls this request makes: its actor, the clock, its logger and id. */
    readonly ctx: ServiceContext;
  }
}

const nobody = { kind: 'token', tokenId: null, userId: null, scopes: [], permissions: null } as const;

/** `request.ctx`, built on first use (public and open routes never pay for it). */
export function registerServiceContext(app: FastifyInstance, platform: Platform): void {
  // Everything a write causes (jobs, their deliveries) is traced back to its request's id. Reads
  // enqueue nothing (jobs are enqueued in the transactions of writes), so their routes do without the
  // request's async context, which costs each request a context frame of its own, and without the
  // hook. It runs before the route's other hooks (the access check), as an application hook would.
  const traced: onRequestHookHandler = (request, _reply, done) => withRequestId(request.id, done);
  app.addHook('onRoute', (route) => {
    if (![route.method].flat().every(isRead)) route.onRequest = [traced, ...hookList(route.onRequest)] as never;
  });
  app.decorateRequest('ctx', {
    getter(this: FastifyRequest): ServiceContext {
      // Routes under /api are the API; those outside it (the invitation page, the console) are pages staff open.
      const via = this.url.startsWith('/api/') ? 'api' : 'console';
      return { actor: this.actor ?? nobody, clock: platform.clock, logger: this.log, requestId: this.id, via, ip: this.ip };
    },
  });
}

/**
 * The context of a console request made by a signed-in staff user: the user acts (their
 * permissions decide), `via` is `console`, with the request's id and client address, so that the
 * audit trail records the change as theirs.
 */
export function consoleContext(
  request: FastifyRequest,
  user: { id: number; name: string; effective_permissions: readonly Permission[] },
): ServiceContext {
  return {
    ...request.ctx,
    actor: { kind: 'user', tokenId: null, userId: user.id, scopes: ['*'], permissions: user.effective_permissions, name: user.name },
    via: 'console',
  };
}

/**
 * The context of a console request made before anyone is signed in (a sign-in attempt, a password
 * reset asked for): it records who it was about, `userId` when the email names a staff user, else
 * null, and `name` what was given (the email). It holds no permission, so no service change may be
 * made with it; it is for recording such attempts (`session.sign_in_failed`) in the audit trail.
 */
export function consoleVisitorContext(request: FastifyRequest, who: { userId: number | null; name: string }): ServiceContext {
  return {
    ...request.ctx,
    actor: { kind: 'user', tokenId: null, userId: who.userId, scopes: [], permissions: [], name: who.name },
    via: 'console',
  };
}
