import type { AcademyModule } from '../manifest.ts';
import { adminWorkflowCommands } from './admin.ts';
import { examples } from './examples.ts';
import { createWorkflowRepository } from './repository.ts';
import { workflowRoutes } from './routes.ts';
import { workflowSearch } from './search.ts';
import { createWorkflowService, type WorkflowService } from './service.ts';

/** Workflows: approval instances of definitions in code, decided over the API by users holding the permission. */
export const workflowsModule = {
  name: 'workflows',
  services: {
    workflows: ({ platform }) =>
      createWorkflowService({
        db: platform.database.db,
        dialect: platform.database.dialect,
        workflows: createWorkflowRepository(platform.database.db),
      }),
  },
  routes:
    ({ platform, services }) =>
    async (app) => {
      await app.register(workflowRoutes, { workflows: services.workflows, maxPageSize: platform.config.maxPageSize });
    },
  admin: adminWorkflowCommands,
  search: [workflowSearch],
  examples,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    workflows: WorkflowService;
  }
}
