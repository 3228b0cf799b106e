import type { AcademyModule } from '../../platform/module.ts';
import { adminAssessmentCommands } from './admin.ts';
import { examples } from './examples.ts';
import { assessmentRoutes } from './routes.ts';
import { assessmentSearch } from './search.ts';
import { assessmentServiceFor } from './service.ts';

/** Assessments of training sessions: read under their session over the API, added in the administration. */
export const assessmentsModule = {
  name: 'assessments',
  routes:
    ({ platform }) =>
    async (app) => {
      await app.register(assessmentRoutes, { assessments: assessmentServiceFor(platform), maxPageSize: platform.config.maxPageSize });
    },
  admin: adminAssessmentCommands,
  search: [assessmentSearch],
  examples,
} satisfies AcademyModule;
