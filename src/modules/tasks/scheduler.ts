import type { Logger } from 'pino';
import type { Database } from '../../db/database.ts';
import { createAlarm } from '../../platform/alarm.ts';
import type { Clock } from '../../platform/clock.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Platform } from '../../platform/platform.ts';
import { SCHEDULER_HEARTBEAT_KEY } from '../health/repository.ts';
import { createOrganizationRepository, type OrganizationRepository } from '../organization/repository.ts';
import { createRuntimeStateRepository } from '../runtime/repository.ts';
import { createTaskRepository, type TaskRepository } from './repository.ts';
import { nextRunAt, queueRun } from './schedule.ts';

/** The next_run_at of a task whose cron never fires again: far out of reach. */
const PARKED = '9999-12-31T00:00:00.000Z';

export interface SchedulerDeps {
  database: Database;
  tasks: TaskRepository;
  organization: OrganizationRepository;
  runtime: ReturnType<typeof createRuntimeStateRepository>;
  queue: JobQueue;
  clock: Clock;
  logger: Logger;
}

export interface SchedulerOptions {
  /** Longest sleep between passes; shorter when a task is due sooner. */
  intervalMs: number;
}

/**
 * Turns due cron times into queued task runs. Every worker process runs one; they need no
 * coordination beyond the database, because a run is queued only by the scheduler whose conditional
 * UPDATE moved the task's next_run_at (see TaskRepository.advance). A task overdue after downtime runs
 * once, not once per missed time.
 */
export function createScheduler(deps: SchedulerDeps, options: SchedulerOptions) {
  const logger = deps.logger.child({ component: 'scheduler' });
  let stopping = false;
  let loop: Promise<void> | null = null;
  const alarm = createAlarm();

  /** One pass; returns how many runs this scheduler queued and when the next task is due. */
  async function tick(): Promise<{ queued: number; nextDueAt: string | null }> {
    const now = deps.clock.now();
    const at = now.toISOString();
    await deps.runtime.set(SCHEDULER_HEARTBEAT_KEY, at, at);
    const { timezone } = await deps.organization.get();
    let queued = 0;
    let nextDueAt: string | null = null;
    for (const task of await deps.tasks.enabledSchedules()) {
      try {
        if (task.next_run_at === null) {
          const next = nextRunAt(task.cron, timezone, now);
          if (next) await deps.tasks.initNextRun(task.id, next, timezone, at);
          if (next && (nextDueAt === null || next < nextDueAt)) nextDueAt = next;
          continue;
        }
        const due = task.next_run_at;
        if (Date.parse(due) > now.getTime()) {
          if (task.schedule_timezone !== null && task.schedule_timezone !== timezone) {
            // The organization moved to another time zone since this time was computed: the cron is
            // read in the new one, and the old zone's time is not run. (A time already overdue, after
            // downtime, still runs once below, and the next one is computed in the new zone.)
            const next = nextRunAt(task.cron, timezone, now);
            if (await deps.tasks.advance(deps.database.db, task.id, due, next ?? PARKED, timezone, at)) {
              logger.info({ task: task.task_type, from: task.schedule_timezone, to: timezone, next_run_at: next }, 'task rescheduled');
            }
            if (next && (nextDueAt === null || next < nextDueAt)) nextDueAt = next;
            continue;
          }
          if (nextDueAt === null || due < nextDueAt) nextDueAt = due;
          continue;
        }
        const next = nextRunAt(task.cron, timezone, now);
        const won = await deps.database.db.transaction().execute(async (trx) => {
          if (!(await deps.tasks.advance(trx, task.id, due, next ?? PARKED, timezone, at))) return false;
          // Null when a run for this due time is still waiting: nothing new was queued.
          return (await queueRun(deps, trx, { taskId: task.id, trigger: 'schedule', scheduledFor: due, now: at })) !== null;
        });
        if (won) {
          queued += 1;
          logger.info({ task: task.task_type, scheduled_for: due, next_run_at: next }, 'task run queued');
        }
        if (next && (nextDueAt === null || next < nextDueAt)) nextDueAt = next;
      } catch (error) {
        // One misconfigured task (a bad cron expression) must not stop the others.
        logger.error({ err: error, task: task.task_type }, 'could not schedule task');
      }
    }
    return { queued, nextDueAt };
  }

  async function run(): Promise<void> {
    while (!stopping) {
      let wait = options.intervalMs;
      try {
        const { nextDueAt } = await tick();
        if (nextDueAt) wait = Math.min(wait, Math.max(10, Date.parse(nextDueAt) - deps.clock.now().getTime()));
      } catch (error) {
        logger.error({ err: error }, 'scheduler pass failed; retrying shortly');
      }
      if (!stopping) await alarm.sleep(wait);
    }
  }

  return {
    tick,
    start(): void {
      if (loop) return;
      stopping = false;
      loop = run();
      logger.info({ intervalMs: options.intervalMs }, 'scheduler started');
    },
    async stop(): Promise<void> {
      stopping = true;
      alarm.wake();
      await loop;
      loop = null;
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;

/** The scheduler over a platform's database and queue (not started); each worker process runs one. */
export function schedulerFor(platform: Platform, options: Partial<SchedulerOptions> = {}): Scheduler {
  return createScheduler(
    {
      database: platform.database,
      tasks: createTaskRepository(platform.database.db),
      organization: createOrganizationRepository(platform.database.db, platform.changes),
      runtime: createRuntimeStateRepository(platform.database.db),
      queue: platform.queue,
      clock: platform.clock,
      logger: platform.logger,
    },
    { intervalMs: options.intervalMs ?? 1000 },
  );
}
