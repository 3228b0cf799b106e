// The report generator's thread (see generator.ts). It lives as long as the generator keeps it: it
// imports only what generating needs (the database, storage, the outbox and the report service, not
// the application's modules), and for each report asked of it opens the database, generates the
// report, closes the database and posts the outcome back. Its logs go to the worker's logger as
// messages; the thread writes nothing to stdout itself.
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../../config.ts';
import { openDatabase } from '../../db/database.ts';
import { systemClock } from '../../platform/clock.ts';
import { type ServiceLogger, system } from '../../platform/context.ts';
import { createOutbox } from '../../platform/events/outbox.ts';
import { createEventRepository } from '../../platform/events/repository.ts';
import { createJobQueue } from '../../platform/jobs/queue.ts';
import { createJobRepository } from '../../platform/jobs/repository.ts';
import { createLocalStorage, type Storage } from '../../platform/storage.ts';
import { withRequestId } from '../../platform/trace.ts';
import type { FromThread, Level, ToThread } from './generator.ts';
import { createReportService } from './service.ts';

const { config } = workerData as { config: Config };
const port = parentPort;
if (!port) throw new Error('The report generator runs in a worker thread.');
const post = (message: FromThread) => port.postMessage(message);

let storage: Storage | null = null;
async function storageFor(): Promise<Storage> {
  if (storage) return storage;
  // The S3 client is loaded only when the files are kept in a bucket.
  storage =
    config.storage.kind === 's3'
      ? (await import('../../platform/storage-s3.ts')).createS3Storage(config.storage)
      : createLocalStorage(path.join(config.dataDir, 'files'));
  return storage;
}

/** Log fields as plain data (errors with their type, message and stack), to be posted to the worker. */
function plain(fields: object): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(fields, (_key, value) =>
      value instanceof Error ? { ...value, type: value.name, message: value.message, stack: value.stack } : value,
    ),
  );
}

/** A logger whose lines the worker writes with its own logger (its level, destination and fields). */
function loggerFor(job: number): ServiceLogger {
  const method =
    (level: Level) =>
    (first: unknown, ...rest: unknown[]) => {
      const fields = typeof first === 'object' && first !== null ? (first instanceof Error ? { err: first } : first) : {};
      const message = typeof first === 'string' ? first : typeof rest[0] === 'string' ? rest[0] : undefined;
      post({ type: 'log', job, level, fields: plain(fields), message });
    };
  return {
    trace: method('trace'),
    debug: method('debug'),
    info: method('info'),
    warn: method('warn'),
    error: method('error'),
    fatal: method('fatal'),
  } as ServiceLogger;
}

async function generate({ job, reportId, requestId }: ToThread): Promise<void> {
  // This connection reads the report's row and writes its progress and moves; its rows are read in a
  // snapshot of their own (Database.holdSnapshot). SQLite's default 2 MB page cache is enough for both,
  // and the larger cache of serving connections would only count against the thread's memory.
  const database = openDatabase(config.databaseUrl, { timeouts: config.dbTimeouts, pageCacheKib: 2048 });
  try {
    const clock = systemClock;
    const jobs = createJobRepository(database.db, database.dialect);
    const queue = createJobQueue({ jobs, clock });
    const outbox = createOutbox({ events: createEventRepository(database.db), queue, clock });
    const reports = createReportService({
      db: database.db,
      holdSnapshot: database.holdSnapshot,
      storage: await storageFor(),
      outbox,
      queue,
      jobs,
    });
    const ctx = { actor: system, clock, logger: loggerFor(job), requestId, via: 'job' as const, ip: null };
    const outcome = await withRequestId(requestId, () => reports.generate(ctx, reportId));
    post({ type: 'done', job, outcome });
  } catch (error) {
    post({ type: 'failed', job, message: error instanceof Error ? error.message : String(error) });
  } finally {
    await database.close().catch(() => {});
  }
}

port.on('message', (message: ToThread) => {
  void generate(message);
});
