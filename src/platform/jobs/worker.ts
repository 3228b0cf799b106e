import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.ts';
import { listen } from '../../db/listen.ts';
import { createAlarm } from '../alarm.ts';
import type { Clock } from '../clock.ts';
import type { Outbox } from '../events/outbox.ts';
import { withRequestId } from '../trace.ts';
import type { JobName } from './names.ts';
import type { JobQueue } from './queue.ts';
import { defaultBackoff, type JobRegistry, PermanentJobError, RetryAfterError } from './registry.ts';
import { type JobRepository, type JobRow, type LockOwner, NOTIFY_CHANNEL } from './repository.ts';

export interface WorkerOptions {
  /** Jobs run at once by this worker. */
  concurrency: number;
  /** A lock not renewed for this long is taken to belong to a dead worker and is swept back. */
  leaseMs: number;
  /** Longest sleep between looks at the table when nothing wakes the worker. */
  pollMs: number;
}

export interface WorkerDeps {
  database: Database;
  jobs: JobRepository;
  queue: JobQueue;
  outbox: Outbox;
  registry: JobRegistry;
  /** Job names the worker must have a handler for (those of the assembled modules). */
  expectedJobs?: readonly JobName[];
  clock: Clock;
  logger: Logger;
}

export const DEFAULT_GRACE_MS = 10_000;

/** After the grace period, aborted handlers get this long to return before their jobs are released. */
const ABORT_SETTLE_MS = 1000;

const STOPPED = 'the worker stopped before the job finished';

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 2000);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Claims due jobs and runs them. Many workers (processes, machines) can share one PostgreSQL queue;
 * on SQLite, workers of several processes take turns at the single writer lock.
 *
 * Delivery is at least once: a job runs again when its worker dies (after the lease) or when it
 * fails. While a worker is alive it renews the lease of its running jobs, so a slow job is never
 * taken over by another worker while it still runs.
 */
export function createWorker(deps: WorkerDeps, options: WorkerOptions) {
  const id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const logger = deps.logger.child({ worker: id });
  const running = new Map<number, Promise<void>>();
  const abort = new AbortController();
  const cleanups: (() => Promise<void> | void)[] = [];
  const sweepEveryMs = Math.max(100, Math.min(options.leaseMs / 2, 30_000));
  let stopping = false;
  let loop: Promise<void> | null = null;
  let stopped: Promise<void> | null = null;
  const alarm = createAlarm();
  let nextSweepAt = 0;
  let heartbeat: NodeJS.Timeout | null = null;
  let renewing = false;

  function wake(): void {
    alarm.wake();
  }

  function sleep(ms: number): Promise<void> {
    return stopping ? Promise.resolve() : alarm.sleep(ms);
  }

  function parsePayload(job: JobRow): unknown {
    try {
      return JSON.parse(job.payload);
    } catch {
      throw new PermanentJobError('the job payload is not valid JSON');
    }
  }

  /** Fails a job for good, runs its `onExhausted` and writes `job.failed`, all in one transaction. */
  async function fail(job: JobRow, error: string, owner: LockOwner): Promise<void> {
    const definition = deps.registry.get(job.name);
    const now = deps.clock.now().toISOString();
    const failed = await deps.database.db.transaction().execute(async (trx) => {
      if (!(await deps.jobs.failPermanently(trx, job.id, owner, error, now))) return false;
      let payload: unknown;
      try {
        payload = JSON.parse(job.payload);
      } catch {
        payload = undefined;
      }
      if (payload !== undefined) await definition?.onExhausted?.(trx, payload as never, error);
      // The dispatcher of events does not report its own failures as events, so a failure cannot loop.
      if (job.name !== 'events.dispatch') {
        await deps.outbox.emit(trx, 'job.failed', { job_id: job.id, job_name: job.name, attempts: job.attempts, last_error: error });
      }
      return true;
    });
    if (failed) logger.error({ job: job.id, name: job.name, attempts: job.attempts, err: error }, 'job failed permanently');
  }

  async function settleFailure(job: JobRow, error: unknown): Promise<void> {
    const text = message(error);
    if (error instanceof PermanentJobError || job.attempts >= job.max_attempts) return fail(job, text, { worker: id });
    const definition = deps.registry.get(job.name);
    const wait = error instanceof RetryAfterError ? error.delayMs : (definition?.backoff ?? defaultBackoff)(job.attempts);
    const now = deps.clock.now();
    const runAt = new Date(now.getTime() + Math.max(0, wait)).toISOString();
    if (await deps.jobs.retryLater(deps.database.db, job.id, id, text, runAt, now.toISOString())) {
      logger.warn({ job: job.id, name: job.name, attempt: job.attempts, delayMs: wait, err: text }, 'job failed; will retry');
    }
  }

  async function execute(job: JobRow): Promise<void> {
    let failure: unknown = null;
    try {
      const definition = deps.registry.get(job.name);
      if (!definition) throw new PermanentJobError(`no handler for job ${job.name}`);
      // The job runs as part of the request that queued it: its logs and the jobs it queues carry its id.
      await withRequestId(job.request_id, () =>
        definition.handler(parsePayload(job) as never, {
          job,
          attempt: job.attempts,
          maxAttempts: job.max_attempts,
          signal: abort.signal,
          logger: logger.child({ job: job.id, name: job.name, ...(job.request_id ? { requestId: job.request_id } : {}) }),
        }),
      );
    } catch (error) {
      failure = error ?? new Error('the handler threw without a reason');
    }
    try {
      if (failure === null) {
        if (!(await deps.jobs.complete(job.id, id))) {
          logger.warn({ job: job.id, name: job.name }, 'job finished after its lock was taken from this worker');
        }
      } else if (abort.signal.aborted) {
        // Cut short by shutdown, not failed: the job goes back to the queue to run again at once.
        await deps.jobs.release(id, [job.id], STOPPED, deps.clock.now().toISOString());
      } else {
        await settleFailure(job, failure);
      }
    } catch (error) {
      logger.error(
        { err: error, job: job.id, name: job.name },
        'could not record the outcome of a job; it runs again when its lease expires',
      );
    }
  }

  function launch(job: JobRow): void {
    const task = execute(job).finally(() => {
      running.delete(job.id);
      wake();
    });
    running.set(job.id, task);
  }

  async function sweepIfDue(): Promise<void> {
    if (Date.now() < nextSweepAt) return;
    nextSweepAt = Date.now() + sweepEveryMs;
    const now = deps.clock.now();
    const lockedBefore = new Date(now.getTime() - options.leaseMs).toISOString();
    const swept = await deps.jobs.sweep(lockedBefore, now.toISOString());
    if (swept > 0) logger.warn({ swept }, 'returned jobs of stopped workers to the queue');
    for (const job of await deps.jobs.staleExhausted(lockedBefore, 100)) {
      await fail(job, 'lease expired during the last attempt: the worker stopped before finishing', { lockedBefore });
    }
  }

  async function renewLeases(): Promise<void> {
    if (renewing || running.size === 0) return;
    renewing = true;
    try {
      await deps.jobs.extendLease(id, [...running.keys()], deps.clock.now().toISOString());
    } catch (error) {
      logger.warn({ err: error }, 'could not renew the lease of running jobs');
    } finally {
      renewing = false;
    }
  }

  async function run(): Promise<void> {
    let failures = 0;
    while (!stopping) {
      alarm.reset();
      try {
        await sweepIfDue();
        let wait = options.pollMs;
        const free = options.concurrency - running.size;
        if (free > 0) {
          const claimed = await deps.jobs.claim(id, deps.clock.now().toISOString(), free);
          for (const job of claimed) launch(job);
          if (claimed.length === free) {
            failures = 0;
            continue;
          }
          // Sleep until the next job is due, a new one is enqueued, or a running one finishes. A job
          // already due but not claimable is being claimed by another worker right now: look again soon.
          const next = await deps.jobs.nextRunAt();
          if (next) wait = Math.min(wait, Math.max(10, Date.parse(next) - deps.clock.now().getTime()));
        }
        failures = 0;
        await sleep(Math.min(wait, Math.max(0, nextSweepAt - Date.now())));
      } catch (error) {
        failures++;
        const retryInMs = Math.min(250 * 2 ** failures, 15_000);
        logger.error({ err: error, retryInMs }, 'worker could not reach the job table; retrying');
        await sleep(retryInMs);
      }
    }
  }

  return {
    id,
    get running(): number {
      return running.size;
    },
    async start(): Promise<void> {
      if (loop || stopped) throw new Error('This worker was already started');
      deps.registry.assertCovers(deps.expectedJobs ?? []);
      cleanups.push(deps.queue.onEnqueued(wake));
      if (deps.database.dialect === 'postgres') cleanups.push(await listen(deps.database, NOTIFY_CHANNEL, { onNotify: wake }, logger));
      heartbeat = setInterval(() => void renewLeases(), Math.max(50, options.leaseMs / 3));
      heartbeat.unref();
      loop = run();
      logger.info({ concurrency: options.concurrency }, 'worker started');
    },
    /**
     * Stops claiming and lets running jobs finish for up to `graceMs`. Then their handlers are aborted
     * (ctx.signal) and the jobs still running are handed back to the queue, to run again elsewhere.
     */
    stop(graceMs = DEFAULT_GRACE_MS): Promise<void> {
      stopped ??= (async () => {
        stopping = true;
        wake();
        await loop;
        const tasks = () => Promise.allSettled([...running.values()]);
        await Promise.race([tasks(), delay(graceMs)]);
        if (running.size > 0) {
          abort.abort(new Error('the worker is shutting down'));
          await Promise.race([tasks(), delay(ABORT_SETTLE_MS)]);
          const unfinished = [...running.keys()];
          if (unfinished.length > 0) {
            await deps.jobs
              .release(id, unfinished, STOPPED, deps.clock.now().toISOString())
              .then((released) => logger.warn({ jobs: unfinished, released }, 'handed unfinished jobs back to the queue'))
              .catch((error) =>
                logger.error({ err: error }, 'could not hand unfinished jobs back; they run again when their lease expires'),
              );
          }
        }
        if (heartbeat) clearInterval(heartbeat);
        for (const cleanup of cleanups) await cleanup();
        logger.info('worker stopped');
      })();
      return stopped;
    },
    /** Wakes the loop now (jobs enqueued in this process wake it themselves, through the queue's onEnqueued). */
    wake,
  };
}

export type Worker = ReturnType<typeof createWorker>;
