import { Type } from 'typebox';
import { PageQuery } from '../../http/pagination.ts';
import { Nullable } from '../../http/schemas.ts';

const Timestamp = (description: string) => Type.String({ format: 'date-time', description });

/** The task schemas, for the task types the assembled modules contribute. */
export function taskSchemas(taskTypeNames: readonly string[]) {
  const TASK_TYPE_NAMES = [...taskTypeNames].sort();
  const taskFields = {
    id: Type.Integer(),
    task_type: Type.Enum(TASK_TYPE_NAMES, { description: 'What the task does; one task per type.' }),
    name: Type.String(),
    description: Type.String(),
    cron: Type.String({ description: 'Five-field cron expression, read in `timezone`.' }),
    timezone: Type.String({ description: "The organization's IANA time zone, in which `cron` is read." }),
    enabled: Type.Boolean({ description: 'A disabled task is not scheduled and cannot be run.' }),
    next_run_at: Nullable(Timestamp('When the scheduler queues the next run; null while disabled or not yet scheduled.')),
    last_run_at: Nullable(Timestamp('When the latest finished run started.')),
    last_outcome: Nullable(Type.Enum(['succeeded', 'failed'], { description: 'Outcome of the latest finished run.' })),
    last_error: Nullable(Type.String({ description: 'Why the latest run failed.' })),
    last_duration_ms: Nullable(Type.Integer({ description: 'How long the latest run took.' })),
    created_at: Timestamp('Creation time.'),
    updated_at: Timestamp('Last change.'),
  };

  const TaskRun = Type.Object(
    {
      id: Type.Integer(),
      task_id: Type.Integer(),
      trigger: Type.Enum(['schedule', 'manual'], { description: '`schedule` (the cron timer) or `manual` (POST /tasks/{task}/run).' }),
      status: Type.Enum(['queued', 'running', 'succeeded', 'failed']),
      scheduled_for: Nullable(Timestamp('The cron time this run is for; null for a manual run.')),
      queued_at: Timestamp('When the run was queued.'),
      started_at: Nullable(Timestamp('When a worker started the run.')),
      finished_at: Nullable(Timestamp('When the run finished.')),
      duration_ms: Nullable(Type.Integer()),
      error: Nullable(Type.String({ description: 'Why the run failed.' })),
    },
    { $id: 'TaskRun' },
  );

  const Task = Type.Object(taskFields, { $id: 'Task' });

  const TaskDetail = Type.Object(
    { ...taskFields, recent_runs: Type.Array(Type.Ref('TaskRun'), { description: 'The latest runs (up to 10), newest first.' }) },
    { $id: 'TaskDetail' },
  );

  const TaskListQuery = Type.Object({
    ...PageQuery,
    task_type: Type.Optional(Type.Enum(TASK_TYPE_NAMES, { description: 'Only the task of this type.' })),
    enabled: Type.Optional(
      Type.Enum(['true', 'false', '1', '0'], { description: 'Only enabled (`true`, `1`) or disabled (`false`, `0`) tasks.' }),
    ),
  });
  return { TaskRun, Task, TaskDetail, TaskListQuery };
}
