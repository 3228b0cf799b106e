import type { Kysely, Selectable } from 'kysely';
import { bool } from '../../db/codec.ts';
import { type ListRequest, listPage, type Page } from '../../db/list.ts';
import type { DB, ScheduledTaskRunTable, ScheduledTaskTable } from '../../db/schema.ts';
import type { TaskSort } from './schemas.ts';

/** A task as stored, decoded (`enabled` a boolean on both databases). */
export type TaskRow = Omit<Selectable<ScheduledTaskTable>, 'enabled'> & { enabled: boolean };
export type TaskRunRow = Selectable<ScheduledTaskRunTable>;

const decode = (row: Selectable<ScheduledTaskTable>): TaskRow => ({ ...row, enabled: bool(row.enabled) });

export interface TaskFilter {
  taskType?: string | undefined;
  enabled?: boolean | undefined;
}

export interface NewTaskRun {
  task_id: number;
  trigger: 'schedule' | 'manual';
  scheduled_for: string | null;
  queued_at: string;
}

export interface TaskOutcome {
  startedAt: string;
  outcome: 'succeeded' | 'failed';
  error: string | null;
  durationMs: number | null;
  now: string;
}

export function createTaskRepository(db: Kysely<DB>) {
  return {
    list: async (filter: TaskFilter, list: ListRequest<TaskSort>): Promise<Page<TaskRow>> => {
      let query = db.selectFrom('scheduled_tasks').selectAll();
      if (filter.taskType !== undefined) query = query.where('task_type', '=', filter.taskType);
      if (filter.enabled !== undefined) query = query.where('enabled', '=', filter.enabled);
      const page = await listPage(db, query, list, {
        sort: { id: 'id', task_type: 'task_type', next_run_at: 'next_run_at', last_run_at: 'last_run_at' },
      });
      return { items: page.items.map(decode), total: page.total };
    },

    findById: async (id: number, executor: Kysely<DB> = db): Promise<TaskRow | undefined> => {
      const row = await executor.selectFrom('scheduled_tasks').selectAll().where('id', '=', id).executeTakeFirst();
      return row && decode(row);
    },

    findByType: async (taskType: string): Promise<TaskRow | undefined> => {
      const row = await db.selectFrom('scheduled_tasks').selectAll().where('task_type', '=', taskType).executeTakeFirst();
      return row && decode(row);
    },

    /** `zone`: the time zone `nextRunAt` was computed in. `also` runs in the update's transaction (the audit event). */
    setEnabled: async (
      id: number,
      enabled: boolean,
      nextRunAt: string | null,
      zone: string,
      now: string,
      also?: (trx: Kysely<DB>) => Promise<void>,
    ): Promise<void> => {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('scheduled_tasks')
          .set({ enabled, next_run_at: nextRunAt, schedule_timezone: nextRunAt === null ? null : zone, updated_at: now })
          .where('id', '=', id)
          .execute();
        await also?.(trx);
      });
    },

    /** What the scheduler looks at on every pass. */
    enabledSchedules: async (): Promise<Pick<TaskRow, 'id' | 'task_type' | 'cron' | 'next_run_at' | 'schedule_timezone'>[]> =>
      db
        .selectFrom('scheduled_tasks')
        .select(['id', 'task_type', 'cron', 'next_run_at', 'schedule_timezone'])
        .where('enabled', '=', true)
        .orderBy('id')
        .execute(),

    /** Sets the first next_run_at of a task that has none; a no-op when another scheduler did it first. */
    initNextRun: async (id: number, nextRunAt: string, zone: string, now: string): Promise<void> => {
      await db
        .updateTable('scheduled_tasks')
        .set({ next_run_at: nextRunAt, schedule_timezone: zone, updated_at: now })
        .where('id', '=', id)
        .where('next_run_at', 'is', null)
        .where('enabled', '=', true)
        .execute();
    },

    /**
     * Moves a task to its next time (computed in `zone`), only if no other scheduler did so since
     * `expected` was read. The conditional UPDATE is what lets any number of schedulers share a
     * database: exactly one of them changes the row, and only that one queues the run (or, after a
     * change of time zone, moves the time without a run).
     */
    advance: async (trx: Kysely<DB>, id: number, expected: string, nextRunAt: string, zone: string, now: string): Promise<boolean> => {
      const result = await trx
        .updateTable('scheduled_tasks')
        .set({ next_run_at: nextRunAt, schedule_timezone: zone, updated_at: now })
        .where('id', '=', id)
        .where('next_run_at', '=', expected)
        .where('enabled', '=', true)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    insertRun: async (trx: Kysely<DB>, run: NewTaskRun): Promise<TaskRunRow> =>
      trx
        .insertInto('scheduled_task_runs')
        .values({ ...run, status: 'queued' })
        .returningAll()
        .executeTakeFirstOrThrow(),

    deleteRun: async (trx: Kysely<DB>, id: number): Promise<void> => {
      await trx.deleteFrom('scheduled_task_runs').where('id', '=', id).execute();
    },

    findRun: async (id: number): Promise<TaskRunRow | undefined> =>
      db.selectFrom('scheduled_task_runs').selectAll().where('id', '=', id).executeTakeFirst(),

    recentRuns: async (taskId: number, limit: number, executor: Kysely<DB> = db): Promise<TaskRunRow[]> =>
      executor.selectFrom('scheduled_task_runs').selectAll().where('task_id', '=', taskId).orderBy('id', 'desc').limit(limit).execute(),

    startRun: async (id: number, now: string): Promise<void> => {
      await db
        .updateTable('scheduled_task_runs')
        .set({ status: 'running', started_at: now })
        .where('id', '=', id)
        .where('status', 'in', ['queued', 'running'])
        .execute();
    },

    finishRun: async (trx: Kysely<DB>, runId: number, taskId: number, outcome: TaskOutcome): Promise<void> => {
      await trx
        .updateTable('scheduled_task_runs')
        .set({ status: outcome.outcome, finished_at: outcome.now, error: outcome.error })
        .where('id', '=', runId)
        .execute();
      // A run that started before the task's latest recorded run does not overwrite that newer outcome.
      await trx
        .updateTable('scheduled_tasks')
        .set({
          last_run_at: outcome.startedAt,
          last_outcome: outcome.outcome,
          last_error: outcome.error,
          last_duration_ms: outcome.durationMs,
          updated_at: outcome.now,
        })
        .where('id', '=', taskId)
        .where((eb) => eb.or([eb('last_run_at', 'is', null), eb('last_run_at', '<=', outcome.startedAt)]))
        .execute();
    },

    /**
     * Ends a run that never finished (its job gave up: the worker died on the last attempt, or the
     * database failed mid-run) as failed, unless it has an outcome already.
     */
    abandonRun: async (trx: Kysely<DB>, runId: number, error: string, now: string): Promise<TaskRunRow | undefined> =>
      trx
        .updateTable('scheduled_task_runs')
        .set({ status: 'failed', finished_at: now, error })
        .where('id', '=', runId)
        .where('status', 'in', ['queued', 'running'])
        .returningAll()
        .executeTakeFirst(),

    /** Keeps the latest `keep` runs of a task: a task run every minute would otherwise grow the table forever. */
    trimRuns: async (trx: Kysely<DB>, taskId: number, keep: number): Promise<void> => {
      const oldestKept = await trx
        .selectFrom('scheduled_task_runs')
        .select('id')
        .where('task_id', '=', taskId)
        .orderBy('id', 'desc')
        .offset(keep - 1)
        .limit(1)
        .executeTakeFirst();
      if (oldestKept) await trx.deleteFrom('scheduled_task_runs').where('task_id', '=', taskId).where('id', '<', oldestKept.id).execute();
    },
  };
}

export type TaskRepository = ReturnType<typeof createTaskRepository>;
