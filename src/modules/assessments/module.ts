import type { AcademyModule } from '../manifest.ts';
import { createSessionRepository } from '../sessions/repository.ts';
import { adminAssessmentCommands } from './admin.ts';
import { examples } from './examples.ts';
import { createAssessmentRepository } from './repository.ts';
import { assessmentRoutes } from './routes.ts';
import { assessmentSearch } from './search.ts';
import { type AssessmentService, createAssessmentService } from './service.ts';

/** Assessments of training sessions: read under their session over the API, added in the administration. */
export const assessmentsModule = {
  name: 'assessments',
  services: {
    assessments: ({ platform }) => {
      const { db, dialect } = platform.database;
      return createAssessmentService({
        assessments: createAssessmentRepository(db),
        sessions: createSessionRepository(db, dialect, platform.changes),
      });
    },
  },
  routes:
    ({ platform, services }) =>
    async (app) => {
      await app.register(assessmentRoutes, { assessments: services.assessments, maxPageSize: platform.config.maxPageSize });
    },
  admin: adminAssessmentCommands,
  search: [assessmentSearch],
  examples,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    assessments: AssessmentService;
  }
}
