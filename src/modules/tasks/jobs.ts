import { isDatabaseUnavailable } from '../../db/errors.ts';
import type { JobDefinitions } from '../../platform/jobs/registry.ts';
import { PermanentJobError } from '../../platform/jobs/registry.ts';
import type { Platform } from '../../platform/platform.ts';
import type { Services } from '../../platform/services.ts';
import type { TaskFunction } from '../manifest.ts';
import { createTaskRepository } from './repository.ts';

/** Runs kept per task (the latest); older ones are deleted as new runs finish. */
export const KEPT_RUNS = 500;

/** Why a run queued before its task was disabled did not run. */
export const DISABLED_BEFORE_RUN = 'The task was disabled before this run started; it did not run.';

function message(error: unknown): string {
  return (error instanceof Error ? error.message || error.name : String(error)).slice(0, 2000);
}

/**
 * The `tasks.run` job: one run of a scheduled task. It marks the run running, does the task type's
 * work and records the outcome on the run and on the task. A failed run also fails its job for good
 * (no retry: the next scheduled time is the retry), which reports `job.failed`. A run whose database
 * went away under it (a connection cut, a failover) did not fail: the task is not broken, so the run
 * stays running and its job's next attempt does it again; only the last attempt's outage is recorded.
 */
export function taskJobs(platform: Platform, services: Services, taskTypes: Record<string, TaskFunction>) {
  const tasks = createTaskRepository(platform.database.db);
  return {
    'tasks.run': {
      async handler({ runId }, ctx) {
        const run = await tasks.findRun(runId);
        if (!run) throw new PermanentJobError(`task run ${runId} does not exist`);
        // Finished already: the job was delivered again after its worker stopped before removing it.
        if (run.status === 'succeeded' || run.status === 'failed') return;
        const task = await tasks.findById(run.task_id);
        if (!task) throw new PermanentJobError(`task ${run.task_id} of run ${runId} does not exist`);
        // Disabled after this run was queued (a manual run, or a scheduled one queued just before): a
        // disabled task does not run. The run ends failed, saying why; the task's last outcome stays.
        if (!task.enabled) {
          await platform.database.db
            .transaction()
            .execute((trx) => tasks.abandonRun(trx, runId, DISABLED_BEFORE_RUN, platform.clock.now().toISOString()));
          return;
        }

        const started = platform.clock.now();
        const startedAt = started.toISOString();
        await tasks.startRun(runId, startedAt);
        const logger = ctx.logger.child({ task: task.task_type, run: runId });
        const clockStart = performance.now();
        let error: string | null = null;
        try {
          const work = taskTypes[task.task_type];
          if (!work) throw new Error(`No work is defined for task type ${task.task_type} in this version.`);
          const summary = await work({ platform, services, now: started, signal: ctx.signal, logger });
          logger.info({ summary }, 'task run succeeded');
        } catch (caught) {
          if (isDatabaseUnavailable(caught)) throw caught;
          error = message(caught);
          logger.warn({ err: caught }, 'task run failed');
        }
        const durationMs = Math.round(performance.now() - clockStart);
        await platform.database.db.transaction().execute(async (trx) => {
          await tasks.finishRun(trx, runId, task.id, {
            startedAt,
            outcome: error === null ? 'succeeded' : 'failed',
            error,
            durationMs,
            now: platform.clock.now().toISOString(),
          });
          await tasks.trimRuns(trx, task.id, KEPT_RUNS);
        });
        if (error !== null) throw new PermanentJobError(`task ${task.task_type} failed: ${error}`);
      },

      async onExhausted(trx, { runId }, error) {
        const now = platform.clock.now().toISOString();
        const run = await tasks.abandonRun(trx, runId, error, now);
        if (!run) return;
        await tasks.finishRun(trx, runId, run.task_id, {
          startedAt: run.started_at ?? run.queued_at,
          outcome: 'failed',
          error,
          durationMs: null,
          now,
        });
      },
    },
  } satisfies JobDefinitions;
}
