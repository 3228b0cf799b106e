import type { AcademyModule } from '../../platform/module.ts';
import { adminTaskCommands } from './admin.ts';
import { examples } from './examples.ts';
import { taskJobs } from './jobs.ts';
import { taskRoutes } from './routes.ts';
import { taskServiceFor } from './service.ts';
import { taskTypesOf } from './types.ts';

/** Permanently failed jobs are kept this long for inspection, then removed by `jobs.prune_failed`. */
export const FAILED_JOB_RETENTION_DAYS = 30;

/** Scheduled tasks: the cron scheduler's runs, their API and administration. */
export const tasksModule = {
  name: 'tasks',
  routes:
    ({ platform, modules }) =>
    async (app) => {
      const taskTypes = Object.keys(taskTypesOf(modules));
      await app.register(taskRoutes, { tasks: taskServiceFor(platform), maxPageSize: platform.config.maxPageSize, taskTypes });
    },
  jobs: ({ platform, modules }) => taskJobs(platform, taskTypesOf(modules)),
  tasks: {
    'jobs.prune_failed': async ({ platform, now }) => {
      const before = new Date(now.getTime() - FAILED_JOB_RETENTION_DAYS * 86_400_000).toISOString();
      return { deleted: await platform.jobs.pruneFailed(before) };
    },
  },
  admin: adminTaskCommands,
  examples,
} satisfies AcademyModule;

declare module '../../platform/jobs/names.ts' {
  interface JobPayloads {
    /** One run of a scheduled task. */
    'tasks.run': { runId: number };
  }
}
