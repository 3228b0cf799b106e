import { type Static, type TSchema, Type } from 'typebox';
import { BooleanFilter, ListQuery } from '../../http/list.ts';
import { Nullable, Ref, StringEnum } from '../../http/schemas.ts';

const Timestamp = (description: string) => Type.String({ format: 'date-time', description });

export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export const RUN_TRIGGERS = ['schedule', 'manual'] as const;

export const TaskRun = Type.Object(
  {
    id: Type.Integer(),
    task_id: Type.Integer(),
    trigger: StringEnum(RUN_TRIGGERS, { description: '`schedule` (the cron timer) or `manual` (POST /tasks/{task}/run).' }),
    status: StringEnum(RUN_STATUSES),
    scheduled_for: Nullable(Timestamp('The cron time this run is for; null for a manual run.')),
    queued_at: Timestamp('When the run was queued.'),
    started_at: Nullable(Timestamp('When a worker started the run.')),
    finished_at: Nullable(Timestamp('When the run finished.')),
    duration_ms: Nullable(Type.Integer()),
    error: Nullable(Type.String({ description: 'Why the run failed.' })),
  },
  { $id: 'TaskRun' },
);
export type TaskRun = Static<typeof TaskRun>;

const taskFields = <T extends TSchema>(taskType: T) => ({
  id: Type.Integer(),
  task_type: taskType,
  name: Type.String(),
  description: Type.String(),
  cron: Type.String({ description: 'Five-field cron expression, read in `timezone`.' }),
  timezone: Type.String({ description: "The organization's IANA time zone, in which `cron` is read." }),
  enabled: Type.Boolean({ description: 'A disabled task is not scheduled and cannot be run.' }),
  next_run_at: Nullable(Timestamp('When the scheduler queues the next run; null while disabled or not yet scheduled.')),
  last_run_at: Nullable(Timestamp('When the latest finished run started.')),
  last_outcome: Nullable(StringEnum(['succeeded', 'failed'], { description: 'Outcome of the latest finished run.' })),
  last_error: Nullable(Type.String({ description: 'Why the latest run failed.' })),
  last_duration_ms: Nullable(Type.Integer({ description: 'How long the latest run took.' })),
  created_at: Timestamp('Creation time.'),
  updated_at: Timestamp('Last change.'),
});

const recentRuns = Type.Array(Ref(TaskRun), { description: 'The latest runs (up to 10), newest first.' });
const TASK_TYPE = 'What the task does; one task per type.';

/** A scheduled task; `task_type` is one of the types the assembled modules contribute (see `taskSchemas`). */
export const Task = Type.Object(taskFields(Type.String({ description: TASK_TYPE })), { $id: 'Task' });
export type Task = Static<typeof Task>;

export const TaskDetail = Type.Object(
  { ...taskFields(Type.String({ description: TASK_TYPE })), recent_runs: recentRuns },
  { $id: 'TaskDetail' },
);
export type TaskDetail = Static<typeof TaskDetail>;

export const TASK_SORTS = ['id', 'task_type', 'next_run_at', 'last_run_at'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

/**
 * The schemas as the API documents and validates them: `task_type` is an enum of the task types the
 * assembled modules contribute (an unknown one in the filter is a 422). Same `$id`s and shapes as above.
 */
export function taskSchemas(taskTypeNames: readonly string[]) {
  const taskType = StringEnum([...taskTypeNames].sort(), { description: TASK_TYPE });
  return {
    TaskRun,
    Task: Type.Object(taskFields(taskType), { $id: 'Task' }),
    TaskDetail: Type.Object({ ...taskFields(taskType), recent_runs: recentRuns }, { $id: 'TaskDetail' }),
    TaskListQuery: ListQuery({
      sort: TASK_SORTS,
      filters: {
        task_type: Type.Optional(StringEnum([...taskTypeNames].sort(), { description: 'Only the task of this type.' })),
        enabled: BooleanFilter('Only enabled or disabled tasks:'),
      },
    }),
  };
}
