import { Cron } from 'croner';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { TaskRepository, TaskRunRow } from './repository.ts';

/**
 * The next time a cron expression fires strictly after `from`, read in the organization's time zone
 * (so "0 3 * * *" is 03:00 local time, across daylight-saving changes). Null when it never fires again.
 */
export function nextRunAt(cron: string, timezone: string, from: Date): string | null {
  return new Cron(cron, { timezone, paused: true }).nextRun(from)?.toISOString() ?? null;
}

/**
 * Queues one run of a task: the run row and its `tasks.run` job in the caller's transaction. A run is
 * attempted once; a failure is recorded on the run and the task, and the next scheduled time is the
 * retry, so a broken task cannot pile up retries.
 */
/** Attempts of one run's job; see queueRun. */
export const RUN_ATTEMPTS = 3;

export async function queueRun(
  deps: { tasks: TaskRepository; queue: JobQueue },
  trx: Kysely<DB>,
  run: { taskId: number; trigger: 'schedule' | 'manual'; scheduledFor: string | null; now: string },
): Promise<TaskRunRow> {
  const row = await deps.tasks.insertRun(trx, {
    task_id: run.taskId,
    trigger: run.trigger,
    scheduled_for: run.scheduledFor,
    queued_at: run.now,
  });
  const key = run.scheduledFor ? `task:${run.taskId}:${run.scheduledFor}` : `task-run:${row.id}`;
  // A failing task is not retried (the next scheduled time is its retry; the handler fails the job
  // for good). The extra attempts are for a worker that died mid-run: the run is then done again.
  await deps.queue.enqueue(trx, 'tasks.run', { runId: row.id }, { key, maxAttempts: RUN_ATTEMPTS });
  return row;
}
