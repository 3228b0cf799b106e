import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Database } from '../../db/database.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Outbox } from '../events/outbox.ts';
import type { JobQueue } from './queue.ts';
import { defaultBackoff, type JobRegistry, PermanentJobError, RetryAfterError } from './registry.ts';
import type { JobRepository, JobRow } from './repository.ts';

export interface WorkerOptions {
  /** Jobs run at once by this worker. */
  concurrency: number;
  /** A lock older than this is taken to belong to a dead worker and is swept back. */
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
  clock: Clock;
  logger: Logger;
}

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 2000);
}

/**
 * Claims due jobs and runs them. Many workers (processes, machines) can share one PostgreSQL queue;
 * on SQLite, workers of several processes take turns at the single writer lock.
 */
export function createWorker(deps: WorkerDeps, options: WorkerOptions) {
  const id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const logger = deps.logger.child({ worker: id });
  const running = new Set<Promise<void>>();
  const abort = new AbortController();
  let stopping = false;
  let wakeUp: (() => void) | null = null;
  let loop: Promise<void> | null = null;
  let lastSweep = 0;
  const cleanups: (() => Promise<void> | void)[] = [];

  function wake(): void {
    wakeUp?.();
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = null;
        resolve();
      }
      wakeUp = done;
    });
  }

  async function finish(job: JobRow, error: unknown): Promise<void> {
    const definition = deps.registry.get(job.name);
    const now = deps.clock.now();
    const text = message(error);
    const exhausted = error instanceof PermanentJobError || job.attempts >= job.max_attempts;
    if (!exhausted) {
      const delay = error instanceof RetryAfterError ? error.delayMs : (definition?.backoff ?? defaultBackoff)(job.attempts);
      await deps.jobs.retryLater(deps.database.db, job.id, id, text, new Date(now.getTime() + delay).toISOString(), now.toISOString());
      logger.warn({ job: job.id, name: job.name, attempt: job.attempts, delayMs: delay, err: text }, 'job failed; will retry');
      return;
    }
    await deps.database.db.transaction().execute(async (trx) => {
      const owned = await deps.jobs.failPermanently(trx, job.id, id, text, now.toISOString());
      if (!owned) return;
      await definition?.onExhausted?.(trx, JSON.parse(job.payload), text);
      // The dispatcher of events does not report its own failures as events, so a failure cannot loop.
      if (job.name !== 'events.dispatch') {
        await deps.outbox.emit(trx, 'job.failed', { job_id: job.id, job_name: job.name, attempts: job.attempts, last_error: text });
      }
    });
    logger.error({ job: job.id, name: job.name, attempts: job.attempts, err: text }, 'job failed permanently');
  }

  async function execute(job: JobRow): Promise<void> {
    const definition = deps.registry.get(job.name);
    try {
      if (!definition) throw new PermanentJobError(`no handler for job ${job.name}`);
      await definition.handler(JSON.parse(job.payload), {
        job,
        attempt: job.attempts,
        maxAttempts: job.max_attempts,
        signal: abort.signal,
        logger: logger.child({ job: job.id, name: job.name }),
      });
      await deps.jobs.complete(job.id, id);
    } catch (error) {
      await finish(job, error).catch((e) => logger.error({ err: e, job: job.id }, 'could not record a job failure'));
    }
  }

  async function sweepIfDue(): Promise<void> {
    const now = Date.now();
    if (now - lastSweep < Math.min(options.leaseMs / 2, 30_000)) return;
    lastSweep = now;
    const at = deps.clock.now();
    const swept = await deps.jobs.sweep(new Date(at.getTime() - options.leaseMs).toISOString(), at.toISOString());
    if (swept > 0) logger.warn({ swept }, 'returned jobs of stopped workers to the queue');
  }

  async function run(): Promise<void> {
    while (!stopping) {
      try {
        await sweepIfDue();
        const free = options.concurrency - running.size;
        if (free > 0) {
          const claimed = await deps.jobs.claim(id, deps.clock.now().toISOString(), free);
          for (const job of claimed) {
            const task = execute(job).finally(() => {
              running.delete(task);
              wake();
            });
            running.add(task);
          }
          if (claimed.length === free) continue;
        }
        // Sleep until the next job is due, a new one is enqueued, or a running one finishes.
        let wait = options.pollMs;
        if (running.size < options.concurrency) {
          const next = await deps.jobs.nextRunAt();
          if (next) wait = Math.min(wait, Math.max(0, Date.parse(next) - deps.clock.now().getTime()));
        }
        await sleep(wait);
      } catch (error) {
        logger.error({ err: error }, 'worker loop error; retrying shortly');
        await sleep(Math.min(options.pollMs, 1000));
      }
    }
  }

  return {
    id,
    async start(): Promise<void> {
      deps.registry.assertComplete();
      cleanups.push(deps.queue.onEnqueued(wake));
      if (deps.database.dialect === 'postgres') cleanups.push(await listen(deps.database.url, wake, logger));
      loop = run();
      logger.info({ concurrency: options.concurrency }, 'worker started');
    },
    /** Stops claiming, lets running jobs finish (up to `graceMs`), then aborts the rest. */
    async stop(graceMs = 10_000): Promise<void> {
      stopping = true;
      wake();
      await loop;
      const timeout = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([Promise.allSettled([...running]), timeout]);
      abort.abort();
      for (const cleanup of cleanups) await cleanup();
    },
    /** Wakes the loop (used by the scheduler after it enqueued work). */
    wake,
  };
}

export type Worker = ReturnType<typeof createWorker>;

/** LISTEN on a dedicated connection; reconnects after a lost connection. */
async function listen(url: string, onNotify: () => void, logger: Logger): Promise<() => Promise<void>> {
  const pg = (await import('pg')).default;
  let client: InstanceType<typeof pg.Client> | null = null;
  let closed = false;
  async function connect(): Promise<void> {
    if (closed) return;
    const next = new pg.Client({ connectionString: url });
    next.on('notification', onNotify);
    next.on('error', (error) => {
      logger.warn({ err: error }, 'job notification connection lost; reconnecting');
      next.end().catch(() => {});
      if (!closed) setTimeout(() => connect().catch(() => {}), 1000).unref();
    });
    try {
      await next.connect();
      await next.query('LISTEN academy_jobs');
      client = next;
      // Jobs enqueued while disconnected are picked up now.
      onNotify();
    } catch (error) {
      logger.warn({ err: error }, 'could not LISTEN for jobs; retrying');
      next.end().catch(() => {});
      if (!closed) setTimeout(() => connect().catch(() => {}), 1000).unref();
    }
  }
  await connect();
  return async () => {
    closed = true;
    await client?.end().catch(() => {});
  };
}
