import type { AcademyModule } from '../manifest.ts';
import { createOrganizationRepository } from '../organization/repository.ts';
import { adminTaskCommands } from './admin.ts';
import { examples } from './examples.ts';
import { taskJobs } from './jobs.ts';
import { createTaskRepository } from './repository.ts';
import { taskRoutes } from './routes.ts';
import { createTaskService, type TaskService } from './service.ts';
import { taskTypesOf } from './types.ts';

/** Permanently failed jobs are kept this long for inspection, then removed by `jobs.prune_failed`. */
export const FAILED_JOB_RETENTION_DAYS = 30;

/** Scheduled tasks: the cron scheduler's runs, their API and administration. */
export const tasksModule = {
  name: 'tasks',
  services: {
    tasks: ({ platform }) =>
      createTaskService({
        tasks: createTaskRepository(platform.database.db),
        organization: createOrganizationRepository(platform.database.db, platform.changes),
        database: platform.database,
        queue: platform.queue,
      }),
  },
  routes:
    ({ platform, services, modules }) =>
    async (app) => {
      const taskTypes = Object.keys(taskTypesOf(modules));
      await app.register(taskRoutes, { tasks: services.tasks, maxPageSize: platform.config.maxPageSize, taskTypes });
    },
  jobs: ({ platform, services, modules }) => taskJobs(platform, services, taskTypesOf(modules)),
  tasks: {
    'jobs.prune_failed': async ({ platform, now }) => {
      const before = new Date(now.getTime() - FAILED_JOB_RETENTION_DAYS * 86_400_000).toISOString();
      return { deleted: await platform.jobs.pruneFailed(before) };
    },
  },
  admin: adminTaskCommands,
  examples,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    tasks: TaskService;
  }
}

declare module '../../platform/jobs/names.ts' {
  interface JobPayloads {
    /** One run of a scheduled task. */
    'tasks.run': { runId: number };
  }
}
