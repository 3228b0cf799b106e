import type { Logger } from 'pino';
import type { Clock } from './clock.ts';

/** Who is acting: a token (HTTP), the operator (CLI) or the system (jobs, the scheduler). */
export interface Actor {
  kind: 'token' | 'operator' | 'system';
  tokenId: number | null;
  /** The user a token acts for (`tokens create --user`); null for tokens without one, the operator and the system. */
  userId: number | null;
  scopes: readonly string[];
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

export const operator: Actor = { kind: 'operator', tokenId: null, userId: null, scopes: ['*'] };
export const system: Actor = { kind: 'system', tokenId: null, userId: null, scopes: ['*'] };

export function operatorContext(deps: { clock: Clock; logger: Logger }): ServiceContext {
  return { actor: operator, clock: deps.clock, logger: deps.logger, requestId: null };
}

export function systemContext(deps: { clock: Clock; logger: Logger }, requestId: string | null = null): ServiceContext {
  return { actor: system, clock: deps.clock, logger: deps.logger, requestId };
}
