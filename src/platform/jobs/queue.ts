import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { currentRequestId } from '../trace.ts';
import type { JobName, JobPayloads } from './names.ts';
import type { JobRepository } from './repository.ts';

export interface EnqueueOptions {
  /** Not before this time (default: now). */
  runAt?: Date;
  /**
   * De-duplicates: while a job with this key is waiting or running, enqueuing another with it does
   * nothing (and returns `undefined`). Once that job completed or failed for good, the key is free.
   */
  key?: string;
  maxAttempts?: number;
}

export const DEFAULT_MAX_ATTEMPTS = 10;

/**
 * Enqueues jobs inside the caller's transaction (the outbox property: the job exists exactly when the
 * change that caused it was committed). Workers in this process are woken at once; on PostgreSQL,
 * workers elsewhere are woken by NOTIFY when the transaction commits.
 */
export function createJobQueue(deps: { jobs: JobRepository; clock: Clock }) {
  const wake = new EventEmitter();
  wake.setMaxListeners(100);
  return {
    async enqueue<N extends JobName>(
      trx: Kysely<DB>,
      name: N,
      payload: JobPayloads[N],
      options: EnqueueOptions = {},
    ): Promise<number | undefined> {
      const now = deps.clock.now();
      const id = await deps.jobs.insert(trx, {
        name,
        payload: JSON.stringify(payload),
        key: options.key ?? null,
        run_at: (options.runAt ?? now).toISOString(),
        max_attempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        request_id: currentRequestId(),
        created_at: now.toISOString(),
      });
      if (id !== undefined) {
        await deps.jobs.notify(trx);
        wake.emit('enqueued');
      }
      return id;
    },

    /** Subscribes to in-process enqueues; returns the unsubscribe function. */
    onEnqueued(listener: () => void): () => void {
      wake.on('enqueued', listener);
      return () => wake.off('enqueued', listener);
    },
  };
}

export type JobQueue = ReturnType<typeof createJobQueue>;
