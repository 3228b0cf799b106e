import type { Static } from 'typebox';
import type { Task, TaskDetail, TaskRun } from './schemas.ts';

const taskRun: Static<typeof TaskRun> = {
  id: 118,
  task_id: 2,
  trigger: 'schedule',
  status: 'succeeded',
  scheduled_for: '2026-11-24T03:00:00.000Z',
  queued_at: '2026-11-24T03:00:00.012Z',
  started_at: '2026-11-24T03:00:00.034Z',
  finished_at: '2026-11-24T03:00:00.091Z',
  duration_ms: 57,
  error: null,
};

const task: Static<typeof Task> = {
  id: 2,
  task_type: 'health.run_checks',
  name: 'Run health checks',
  description: 'Runs every enabled health check and sends an alert when one fails.',
  cron: '*/5 * * * *',
  timezone: 'Europe/London',
  enabled: true,
  next_run_at: '2026-11-24T03:05:00.000Z',
  last_run_at: '2026-11-24T03:00:00.034Z',
  last_outcome: 'succeeded',
  last_error: null,
  last_duration_ms: 57,
  created_at: '2026-01-05T09:00:00.000Z',
  updated_at: '2026-11-24T03:00:00.091Z',
};

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples): the shape the API really sends, from the demo academy (Northwind Training
 * Academy, GBP, Europe/London). Each is typed as its schema, so one that no longer fits fails the typecheck.
 */
export const examples = {
  Task: task,
  TaskDetail: { ...task, recent_runs: [taskRun] } satisfies Static<typeof TaskDetail>,
  TaskRun: taskRun,
};
