import type { Logger } from 'pino';
import type { Platform } from '../../platform/platform.ts';
import { healthServiceFor } from '../health/service.ts';
import { createIdempotencyRepository } from '../idempotency/repository.ts';
import { createIdempotencyService } from '../idempotency/service.ts';
import { createTaskRepository } from './repository.ts';

export interface TaskContext {
  platform: Platform;
  /** When the run started, by the platform's clock. */
  now: Date;
  /** Aborted when the worker shuts down; long tasks should stop early. */
  signal: AbortSignal;
  logger: Logger;
}

/** The work of one task type. What it returns is logged with the run as its summary. */
export type TaskFunction = (ctx: TaskContext) => Promise<Record<string, unknown>>;

/** Permanently failed jobs are kept this long for inspection, then removed by `jobs.prune_failed`. */
export const FAILED_JOB_RETENTION_DAYS = 30;

const pruneIdempotencyKeys: TaskFunction = async ({ platform, now }) => {
  const keys = createIdempotencyService({ keys: createIdempotencyRepository(platform.database.db), clock: platform.clock });
  return { deleted: await keys.prune(now) };
};

const runHealthChecks: TaskFunction = async ({ platform }) => {
  const { report, previous, alerted } = await healthServiceFor(platform).runAndAlert();
  return { status: report.status, previous: previous ?? null, alerted };
};

const pruneFailedJobs: TaskFunction = async ({ platform, now }) => {
  const before = new Date(now.getTime() - FAILED_JOB_RETENTION_DAYS * 86_400_000).toISOString();
  return { deleted: await createTaskRepository(platform.database.db).pruneFailedJobs(before) };
};

/**
 * Every task type, by the `task_type` of its scheduled_tasks row. A module that brings new periodic
 * work adds one line here and a migration that inserts the task's row (name, description, cron).
 */
export const TASK_TYPES: Record<string, TaskFunction> = {
  'idempotency.prune': pruneIdempotencyKeys,
  'health.run_checks': runHealthChecks,
  'jobs.prune_failed': pruneFailedJobs,
};

export const TASK_TYPE_NAMES = Object.keys(TASK_TYPES);
