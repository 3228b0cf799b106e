import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { ServiceContext } from '../platform/context.ts';
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
      return { actor: this.actor ?? nobody, clock: platform.clock, logger: this.log, requestId: this.id };
    },
  });
}
