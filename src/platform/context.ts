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
  /**
   * What the audit trail calls the actor (src/platform/audit.ts): the token's name, the user's name.
   * Looked up by the id when absent.
   */
  name?: string | undefined;
}

/** Where a change was asked for: the API, the console, `academy admin` (and the other commands), or a job. */
export type Via = 'api' | 'console' | 'cli' | 'job';

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
  /** Where the call was asked for; the audit trail records it with every change. */
  via: Via;
  /** The client's address (HTTP: the API and the console); null for the command line and jobs. */
  ip: string | null;
}

export const operator: Actor = { kind: 'operator', tokenId: null, userId: null, scopes: ['*'], permissions: null, name: 'operator' };
export const system: Actor = { kind: 'system', tokenId: null, userId: null, scopes: ['*'], permissions: null, name: 'system' };

/** The context of `academy` commands: the operator, on the command line. */
export function operatorContext(deps: { clock: Clock; logger: Logger }): ServiceContext {
  return { actor: operator, clock: deps.clock, logger: deps.logger, requestId: null, via: 'cli', ip: null };
}

/** The context of jobs and scheduled tasks: the system; `requestId` is that of the request the job descends from. */
export function systemContext(deps: { clock: Clock; logger: Logger }, requestId: string | null = null): ServiceContext {
  return { actor: system, clock: deps.clock, logger: deps.logger, requestId, via: 'job', ip: null };
}

/**
 * The same call's context acting as the system: what the system does in consequence of a change
 * (a waitlisted enrolment promoted to a freed seat) is recorded as the system's, with the request,
 * channel and address of the change that caused it.
 */
export function asSystem(ctx: ServiceContext): ServiceContext {
  return { ...ctx, actor: system };
}
