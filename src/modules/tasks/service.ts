import type { Database } from '../../db/database.ts';
import type { ListRequest, Page } from '../../db/list.ts';
import { readSnapshot } from '../../db/snapshot.ts';
import { audit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { ConflictError, NotFoundError } from '../../platform/errors.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import { requirePermission } from '../../platform/permissions.ts';
import type { OrganizationRepository } from '../organization/repository.ts';
import type { TaskFilter, TaskRepository, TaskRow, TaskRunRow } from './repository.ts';
import { nextRunAt, queueRun } from './schedule.ts';
import type { Task, TaskDetail, TaskRun, TaskSort } from './schemas.ts';

/** How many runs a task's detail shows, newest first. */
export const RECENT_RUNS = 10;

export function presentTask(row: TaskRow, timezone: string): Task {
  return {
    id: row.id,
    task_type: row.task_type,
    name: row.name,
    description: row.description,
    cron: row.cron,
    timezone,
    enabled: row.enabled,
    next_run_at: row.next_run_at,
    last_run_at: row.last_run_at,
    last_outcome: row.last_outcome as Task['last_outcome'],
    last_error: row.last_error,
    last_duration_ms: row.last_duration_ms,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function presentRun(row: TaskRunRow): TaskRun {
  return {
    id: row.id,
    task_id: row.task_id,
    trigger: row.trigger as TaskRun['trigger'],
    status: row.status as TaskRun['status'],
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
}

export function createTaskService(deps: TaskServiceDeps) {
  const timezone = async () => (await deps.organization.get()).timezone;

  async function find(id: number): Promise<TaskRow> {
    const row = await deps.tasks.findById(id);
    if (!row) throw new NotFoundError();
    return row;
  }

  return {
    async list(_ctx: ServiceContext, filter: TaskFilter, list: ListRequest<TaskSort>): Promise<Page<Task>> {
      const [{ items, total }, zone] = await Promise.all([deps.tasks.list(filter, list), timezone()]);
      return { items: items.map((row) => presentTask(row, zone)), total };
    },

    async get(_ctx: ServiceContext, id: number): Promise<TaskDetail> {
      // The task and its runs in one snapshot: a run's outcome and the task's (`finishRun`), or the
      // task's next run time and its queued run (the scheduler), are committed together, and two
      // reads apart could show one without the other.
      const [{ row, runs }, zone] = await Promise.all([
        readSnapshot(deps.database.db, deps.database.dialect, async (executor) => {
          const row = await deps.tasks.findById(id, executor);
          return { row, runs: row ? await deps.tasks.recentRuns(id, RECENT_RUNS, executor) : [] };
        }),
        timezone(),
      ]);
      if (!row) throw new NotFoundError();
      return { ...presentTask(row, zone), recent_runs: runs.map(presentRun) };
    },

    /** One run of a task: a run under another task is the same 404 as a missing one. */
    async getRun(_ctx: ServiceContext, taskId: number, runId: number): Promise<TaskRun> {
      const run = await deps.tasks.findRun(runId);
      if (!run || run.task_id !== taskId) throw new NotFoundError();
      return presentRun(run);
    },

    /** A task by id or by its task_type (the CLI accepts either). */
    async resolve(_ctx: ServiceContext, reference: string): Promise<TaskRow> {
      const row = /^\d+$/.test(reference) ? await deps.tasks.findById(Number(reference)) : await deps.tasks.findByType(reference);
      if (!row) throw new NotFoundError();
      return row;
    },

    /** Queues a run at once, outside the cron timer; the run is otherwise like a scheduled one. */
    async runNow(ctx: ServiceContext, id: number): Promise<TaskRun> {
      requirePermission(ctx, 'operations.manage');
      const task = await find(id);
      if (!task.enabled) throw new ConflictError('task_disabled', `The task ${task.task_type} is disabled; enable it before running it.`);
      const now = ctx.clock.now().toISOString();
      const run = await deps.database.db.transaction().execute(async (trx) => {
        const queued = await queueRun(deps, trx, { taskId: task.id, trigger: 'manual', scheduledFor: null, now });
        await audit.record(trx, ctx, {
          action: 'task.run_requested',
          subject: { type: 'task', id: task.id },
          changes: { run_id: [null, queued?.id ?? null] },
        });
        return queued;
      });
      // A manual run's job is keyed by the run's own id, so it is never de-duplicated away.
      return presentRun(run as TaskRunRow);
    },

    /**
     * Enabling schedules the next run from now (runs missed while disabled are not caught up);
     * disabling clears it, so no scheduler picks the task up.
     */
    async setEnabled(ctx: ServiceContext, reference: string, enabled: boolean): Promise<Task> {
      requirePermission(ctx, 'operations.manage');
      const task = await this.resolve(ctx, reference);
      const now = ctx.clock.now();
      const zone = await timezone();
      if (task.enabled !== enabled) {
        const next = enabled ? nextRunAt(task.cron, zone, now) : null;
        await deps.tasks.setEnabled(task.id, enabled, next, zone, now.toISOString(), (trx) =>
          audit.record(trx, ctx, {
            action: enabled ? 'task.enabled' : 'task.disabled',
            subject: { type: 'task', id: task.id },
            changes: { enabled: [task.enabled, enabled], next_run_at: [task.next_run_at, next] },
          }),
        );
      }
      return presentTask(await find(task.id), zone);
    },
  };
}

export type TaskService = ReturnType<typeof createTaskService>;
