import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DB } from '../../db/schema.ts';
import type { JobName, JobPayloads } from './names.ts';
import type { JobRow } from './repository.ts';

export interface JobContext {
  job: JobRow;
  /** 1-based number of this attempt. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the worker shuts down; long handlers should stop early. */
  signal: AbortSignal;
  logger: Logger;
}

export interface JobDefinition<N extends JobName> {
  handler(payload: JobPayloads[N], ctx: JobContext): Promise<void>;
  /** Delay before retry `attempt + 1`, in ms. Default: exponential from 1 s, capped at 1 h, with jitter. */
  backoff?(attempt: number): number;
  /** Runs in the transaction that marks the job failed for good, to record the final outcome. */
  onExhausted?(trx: Kysely<DB>, payload: JobPayloads[N], error: string): Promise<void>;
}

/** A handler asks for its retry at a given time (e.g. a receiver's Retry-After). */
export class RetryAfterError extends Error {
  readonly delayMs: number;

  constructor(message: string, delayMs: number) {
    super(message);
    this.name = 'RetryAfterError';
    this.delayMs = delayMs;
  }
}

/** A failure that no retry can fix: the job is failed at once. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

export function defaultBackoff(attempt: number): number {
  const base = Math.min(1000 * 2 ** (attempt - 1), 3_600_000);
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

export function createJobRegistry() {
  const definitions = new Map<JobName, JobDefinition<any>>();
  return {
    register<N extends JobName>(name: N, definition: JobDefinition<N>): void {
      if (definitions.has(name)) throw new Error(`Job ${name} already has a handler`);
      definitions.set(name, definition);
    },
    get(name: string): JobDefinition<any> | undefined {
      return definitions.get(name as JobName);
    },
    /** The job names with a handler. */
    names(): JobName[] {
      return [...definitions.keys()];
    },
    /** A worker must not start with work it cannot do: every name in `expected` needs a handler. */
    assertCovers(expected: readonly JobName[]): void {
      const missing = expected.filter((name) => !definitions.has(name));
      if (missing.length) throw new Error(`No handler registered for job(s): ${missing.join(', ')}`);
    },
  };
}

export type JobRegistry = ReturnType<typeof createJobRegistry>;

/** A module's jobs: the handler of each job name it declares. */
export type JobDefinitions = { [N in JobName]?: JobDefinition<N> };

export type { JobPayloads };
