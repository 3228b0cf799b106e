import { Cron } from 'croner';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { TaskRepository, TaskRunRow } from './repository.ts';

/**
 * The next time a cron expression fires strictly after `from`, read in the organization's time zone
 * (so "0 3 * * *" is 03:00 local time, across daylight-saving changes). Null when it never fires again.
 */
export function nextRunAt(cron: string, timezone: string, from: Date): string | null {
  return new Cron(cron, { timezone, paused: true }).nextRun(from)?.toISOString() ?? null;
}

/** Attempts of one run's job; see queueRun. */
export const RUN_ATTEMPTS = 3;

/**
 * Queues one run of a task: the run row and its `tasks.run` job in the caller's transaction, both or
 * neither. A scheduled run's job is keyed by its due time, so a second run for a due time whose job is
 * still waiting is not queued (null), and its run row is removed with it: a run never exists without
 * the job that runs it.
 *
 * A run is attempted once: a failure is recorded on the run and the task, and the next scheduled time
 * is the retry, so a broken task cannot pile up retries. The extra attempts are for a worker that died
 * mid-run: the run is then done again.
 */
export async function queueRun(
  deps: { tasks: TaskRepository; queue: JobQueue },
  trx: Kysely<DB>,
  run: { taskId: number; trigger: 'schedule' | 'manual'; scheduledFor: string | null; now: string },
): Promise<TaskRunRow | null> {
  const row = await deps.tasks.insertRun(trx, {
    task_id: run.taskId,
    trigger: run.trigger,
    scheduled_for: run.scheduledFor,
    queued_at: run.now,
  });
  const key = run.scheduledFor ? `task:${run.taskId}:${run.scheduledFor}` : `task-run:${row.id}`;
  const jobId = await deps.queue.enqueue(trx, 'tasks.run', { runId: row.id }, { key, maxAttempts: RUN_ATTEMPTS });
  if (jobId === undefined) {
    await deps.tasks.deleteRun(trx, row.id);
    return null;
  }
  return row;
}
