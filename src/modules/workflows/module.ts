import type { AcademyModule } from '../../platform/module.ts';
import { adminWorkflowCommands } from './admin.ts';
import { examples } from './examples.ts';
import { workflowRoutes } from './routes.ts';
import { workflowSearch } from './search.ts';
import { workflowServiceFor } from './service.ts';

/** Workflows: approval instances of definitions in code, decided over the API by users holding the permission. */
export const workflowsModule = {
  name: 'workflows',
  routes:
    ({ platform }) =>
    async (app) => {
      await app.register(workflowRoutes, { workflows: workflowServiceFor(platform), maxPageSize: platform.config.maxPageSize });
    },
  admin: adminWorkflowCommands,
  search: [workflowSearch],
  examples,
} satisfies AcademyModule;
