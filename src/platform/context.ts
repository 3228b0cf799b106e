import type { Clock } from './clock.ts';

/** Who is acting: a token (HTTP), the operator (CLI) or the system (jobs). Services take this explicitly. */
export interface Actor {
  kind: 'token' | 'operator' | 'system';
  tokenId: number | null;
  userId: number | null;
  scopes: readonly string[];
}

export interface RequestContext {
  actor: Actor;
  clock: Clock;
}

export const operator: Actor = { kind: 'operator', tokenId: null, userId: null, scopes: ['*'] };
export const system: Actor = { kind: 'system', tokenId: null, userId: null, scopes: ['*'] };
