import type { Database } from '../../db/database.ts';
import type { Page, PageRequest } from '../../http/pagination.ts';
import type { Clock } from '../../platform/clock.ts';
import { ConflictError, NotFoundError } from '../../platform/errors.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Platform } from '../../platform/platform.ts';
import { createOrganizationRepository, type OrganizationRepository } from '../organization/repository.ts';
import { createTaskRepository, type TaskFilter, type TaskRepository, type TaskRow, type TaskRunRow } from './repository.ts';
import { nextRunAt, queueRun } from './schedule.ts';

export interface TaskView {
  id: number;
  task_type: string;
  name: string;
  description: string;
  cron: string;
  timezone: string;
  enabled: boolean;
  next_run_at: string | null;
  last_run_at: string | null;
  last_outcome: string | null;
  last_error: string | null;
  last_duration_ms: number | null;
  created_at: string;
  updated_at: string;
}

export interface TaskRunView {
  id: number;
  task_id: number;
  trigger: string;
  status: string;
  scheduled_for: string | null;
  queued_at: string;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  error: string | null;
}

export interface TaskDetail extends TaskView {
  recent_runs: TaskRunView[];
}

/** How many runs a task's detail shows, newest first. */
export const RECENT_RUNS = 10;

export function presentTask(row: TaskRow, timezone: string): TaskView {
  return {
    id: row.id,
    task_type: row.task_type,
    name: row.name,
    description: row.description,
    cron: row.cron,
    timezone,
    enabled: Boolean(row.enabled),
    next_run_at: row.next_run_at,
    last_run_at: row.last_run_at,
    last_outcome: row.last_outcome,
    last_error: row.last_error,
    last_duration_ms: row.last_duration_ms,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function presentRun(row: TaskRunRow): TaskRunView {
  return {
    id: row.id,
    task_id: row.task_id,
    trigger: row.trigger,
    status: row.status,
    scheduled_for: row.scheduled_for,
    queued_at: row.queued_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    duration_ms: row.started_at && row.finished_at ? Date.parse(row.finished_at) - Date.parse(row.started_at) : null,
    error: row.error,
  };
}

export interface TaskServiceDeps {
  tasks: TaskRepository;
  organization: OrganizationRepository;
  database: Database;
  queue: JobQueue;
  clock: Clock;
}

export function createTaskService(deps: TaskServiceDeps) {
  const timezone = async () => (await deps.organization.get()).timezone;

  async function find(id: number): Promise<TaskRow> {
    const row = await deps.tasks.findById(id);
    if (!row) throw new NotFoundError();
    return row;
  }

  return {
    async list(filter: TaskFilter, page: PageRequest): Promise<Page<TaskView>> {
      const [{ items, total }, zone] = await Promise.all([
        deps.tasks.list(filter, { limit: page.perPage, offset: page.offset }),
        timezone(),
      ]);
      return { items: items.map((row) => presentTask(row, zone)), total };
    },

    async get(id: number): Promise<TaskDetail> {
      const row = await find(id);
      const [runs, zone] = await Promise.all([deps.tasks.recentRuns(id, RECENT_RUNS), timezone()]);
      return { ...presentTask(row, zone), recent_runs: runs.map(presentRun) };
    },

    /** A task by id or by its task_type (the CLI accepts either). */
    async resolve(reference: string): Promise<TaskRow> {
      const row = /^\d+$/.test(reference) ? await deps.tasks.findById(Number(reference)) : await deps.tasks.findByType(reference);
      if (!row) throw new NotFoundError();
      return row;
    },

    /** Queues a run at once, outside the cron timer; the run is otherwise like a scheduled one. */
    async runNow(id: number): Promise<TaskRunView> {
      const task = await find(id);
      if (!task.enabled) throw new ConflictError('task_disabled', `The task ${task.task_type} is disabled; enable it before running it.`);
      const now = deps.clock.now().toISOString();
      const run = await deps.database.db
        .transaction()
        .execute((trx) => queueRun(deps, trx, { taskId: task.id, trigger: 'manual', scheduledFor: null, now }));
      // A manual run's job is keyed by the run's own id, so it is never de-duplicated away.
      return presentRun(run as TaskRunRow);
    },

    /**
     * Enabling schedules the next run from now (runs missed while disabled are not caught up);
     * disabling clears it, so no scheduler picks the task up.
     */
    async setEnabled(reference: string, enabled: boolean): Promise<TaskView> {
      const task = await this.resolve(reference);
      const now = deps.clock.now();
      const zone = await timezone();
      if (Boolean(task.enabled) !== enabled) {
        await deps.tasks.setEnabled(task.id, enabled, enabled ? nextRunAt(task.cron, zone, now) : null, now.toISOString());
      }
      return presentTask(await find(task.id), zone);
    },
  };
}

export type TaskService = ReturnType<typeof createTaskService>;

/** The task service over a platform's database and queue. */
export function taskServiceFor(platform: Platform): TaskService {
  return createTaskService({
    tasks: createTaskRepository(platform.database.db),
    organization: createOrganizationRepository(platform.database.db, platform.changes),
    database: platform.database,
    queue: platform.queue,
    clock: platform.clock,
  });
}
