import type { Logger } from 'pino';
import type { Clock } from './clock.ts';
import type { Permission } from './permissions.ts';

/**
 * Who is acting: a token (HTTP), a staff user (signed in to the console, or `academy admin --as`),
 * the operator (CLI) or the system (jobs, the scheduler).
 */
export interface Actor {
  kind: 'token' | 'user' | 'operator' | 'system';
  tokenId: number | null;
  /** The user acting, or the one a token acts for (`tokens create --user`); null for tokens without one, the operator and the system. */
  userId: number | null;
  scopes: readonly string[];
  /**
   * What the acting user may change (their roles' permissions and those granted directly); null when
   * no user acts: a token for nobody (its scopes bound it), the operator, the system (requirePermission).
   */
  permissions: readonly Permission[] | null;
}

/**
 * The first argument of every service call: who acts, the clock to read "now" from, and what to log
 * with. Routes build it from the request, the `academy` command passes an operator context, jobs a
 * system context; services never reach for a global clock or logger.
 */
/** What a service logs with: the request's logger over HTTP, the process's elsewhere. */
export type ServiceLogger = Pick<Logger, 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal'>;

export interface ServiceContext {
  actor: Actor;
  clock: Clock;
  logger: ServiceLogger;
  /** The HTTP request (or job) this call serves, for logs and for the jobs it enqueues. */
  requestId: string | null;
}

export const operator: Actor = { kind: 'operator', tokenId: null, userId: null, scopes: ['*'], permissions: null };
export const system: Actor = { kind: 'system', tokenId: null, userId: null, scopes: ['*'], permissions: null };

export function operatorContext(deps: { clock: Clock; logger: Logger }): ServiceContext {
  return { actor: operator, clock: deps.clock, logger: deps.logger, requestId: null };
}

export function systemContext(deps: { clock: Clock; logger: Logger }, requestId: string | null = null): ServiceContext {
  return { actor: system, clock: deps.clock, logger: deps.logger, requestId };
}
