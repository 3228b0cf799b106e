import { Worker } from 'node:worker_threads';
import type { Config } from '../../config.ts';
import type { ServiceLogger } from '../../platform/context.ts';
import type { ReportStatus } from './schemas.ts';

/** What the worker asks of the generator's thread: one report. */
export interface ToThread {
  job: number;
  reportId: number;
  requestId: string | null;
}

export type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** What the thread answers: a report's outcome, its failure, or a log line of it. */
export type FromThread =
  | { type: 'done'; job: number; outcome: ReportStatus | 'skipped' }
  | { type: 'failed'; job: number; message: string }
  | { type: 'log'; job: number; level: Level; fields: Record<string, unknown>; message: string | undefined };

/** The heap a report's generation may use: it streams, so this bounds its memory whatever its size. */
const THREAD_OLD_SPACE_MB = 96;
const THREAD_YOUNG_SPACE_MB = 16;
/** A thread with no report to generate for this long is stopped; the next report starts a new one. */
const IDLE_MS = 5 * 60_000;

interface Pending {
  resolve: (outcome: ReportStatus | 'skipped') => void;
  reject: (error: Error) => void;
  logger: ServiceLogger;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
  idle: NodeJS.Timeout | null;
}

export interface ReportGenerator {
  /** Generates a report in the thread; fails if the thread dies first (out of memory included). */
  generate(reportId: number, requestId: string | null, logger: ServiceLogger): Promise<ReportStatus | 'skipped'>;
  /** The running thread's id; null before the first report and after the thread stopped or died. */
  readonly threadId: number | null;
  /** Stops the thread; the reports it was generating fail as in a crash (their jobs are retried). */
  close(): Promise<void>;
}

/**
 * Reports are generated in a worker thread with a heap of its own, bounded (THREAD_OLD_SPACE_MB): a
 * 500,000-row export then grows the process by tens of megabytes, where in the worker's own heap V8
 * let the old generation fill with short-lived rows to well over 100 MB before collecting it.
 *
 * One thread per process: started with the first report, kept for later ones (starting one costs the
 * loading of its modules), stopped after IDLE_MS without work, and started again after it died. It
 * keeps the process alive only while it has reports to generate. If it dies (out of memory
 * included), every report it was generating fails like any other error: its job is retried.
 */
export function createReportGenerator(config: Config): ReportGenerator {
  let current: Thread | null = null;
  let jobs = 0;

  function settle(thread: Thread, job: number): Pending | undefined {
    const pending = thread.pending.get(job);
    thread.pending.delete(job);
    if (thread.pending.size === 0 && current === thread) {
      thread.worker.unref();
      thread.idle = setTimeout(() => {
        if (current === thread && thread.pending.size === 0) {
          current = null;
          void thread.worker.terminate();
        }
      }, IDLE_MS);
      thread.idle.unref();
    }
    return pending;
  }

  function start(): Thread {
    const worker = new Worker(new URL('./thread.ts', import.meta.url), {
      workerData: { config },
      resourceLimits: { maxOldGenerationSizeMb: THREAD_OLD_SPACE_MB, maxYoungGenerationSizeMb: THREAD_YOUNG_SPACE_MB },
    });
    const thread: Thread = { worker, pending: new Map(), idle: null };
    const lost = (error: Error) => {
      if (current === thread) current = null;
      if (thread.idle) clearTimeout(thread.idle);
      for (const pending of thread.pending.values()) pending.reject(error);
      thread.pending.clear();
    };
    worker.on('message', (message: FromThread) => {
      if (message.type === 'log') {
        const pending = thread.pending.get(message.job);
        if (pending) pending.logger[message.level](message.fields, message.message as string);
        return;
      }
      const pending = settle(thread, message.job);
      if (message.type === 'done') pending?.resolve(message.outcome);
      else pending?.reject(new Error(message.message));
    });
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the report generator's thread exited (code ${code}) before it finished`)));
    return thread;
  }

  return {
    generate(reportId, requestId, logger) {
      current ??= start();
      const thread = current;
      if (thread.idle) clearTimeout(thread.idle);
      thread.idle = null;
      thread.worker.ref();
      jobs += 1;
      const job = jobs;
      return new Promise((resolve, reject) => {
        thread.pending.set(job, { resolve, reject, logger });
        thread.worker.postMessage({ job, reportId, requestId } satisfies ToThread);
      });
    },
    get threadId() {
      return current?.worker.threadId ?? null;
    },
    async close() {
      const thread = current;
      current = null;
      if (thread) await thread.worker.terminate();
    },
  };
}
