import type { Config } from '../config.ts';
import type { JobName } from '../platform/jobs/names.ts';
import type { AcademyModule, ModuleContext } from '../platform/module.ts';
import { createPlatform, type Platform, type PlatformOptions } from '../platform/platform.ts';
import { applicationsModule } from './applications/module.ts';
import { assessmentsModule } from './assessments/module.ts';
import { certificatesModule } from './certificates/module.ts';
import { coursesModule } from './courses/module.ts';
import { documentsModule } from './documents/module.ts';
import { enrolmentsModule } from './enrolments/module.ts';
import { eventsModule } from './events/module.ts';
import { healthModule } from './health/module.ts';
import { idempotencyModule } from './idempotency/module.ts';
import { integrationsModule } from './integrations/module.ts';
import { meetingsModule } from './meetings/module.ts';
import { notificationsModule } from './notifications/module.ts';
import { organizationModule } from './organization/module.ts';
import { reportsModule } from './reports/module.ts';
import { resourcesModule } from './resources/module.ts';
import { searchModule } from './search/module.ts';
import { sessionsModule } from './sessions/module.ts';
import { studentsModule } from './students/module.ts';
import { tasksModule } from './tasks/module.ts';
import { usersModule } from './users/module.ts';
import { webhooksModule } from './webhooks/module.ts';
import { workflowsModule } from './workflows/module.ts';

/**
 * Every module of the application, in the order their routes, commands and seeds are registered.
 * Adding a resource adds its module here; nothing else central changes.
 */
export const modules = [
  organizationModule,
  eventsModule,
  webhooksModule,
  integrationsModule,
  tasksModule,
  healthModule,
  idempotencyModule,
  coursesModule,
  sessionsModule,
  assessmentsModule,
  resourcesModule,
  meetingsModule,
  enrolmentsModule,
  studentsModule,
  applicationsModule,
  certificatesModule,
  usersModule,
  notificationsModule,
  workflowsModule,
  documentsModule,
  reportsModule,
  searchModule,
] as const satisfies readonly AcademyModule[];

// Every job that a module (or the platform) declares has a handler in some module: a declared job
// without one fails the typecheck here, naming it.
type JobsOf<M> = M extends { jobs: (context: ModuleContext) => infer Definitions } ? keyof Definitions : never;
type Handled = JobsOf<(typeof modules)[number]> | 'system.noop';
type Unhandled = Exclude<JobName, Handled>;
const everyJobHandled: [Unhandled] extends [never] ? true : { unhandled: Unhandled } = true;
void everyJobHandled;

/** Every module's own configuration checked (AcademyModule.checkConfig): `serve` and `worker` call it as they start. */
export function checkModuleConfig(platform: Platform): void {
  for (const module of modules as readonly AcademyModule[]) module.checkConfig?.(platform);
}

/** A platform with every module's job handlers registered: what `serve`, `worker`, the CLI and tests run. */
export function assemble(config: Config, options: PlatformOptions = {}): Platform {
  const platform = createPlatform(config, options);
  const context: ModuleContext = { platform, modules };
  for (const module of modules as readonly AcademyModule[]) {
    for (const [name, definition] of Object.entries(module.jobs?.(context) ?? {})) {
      platform.registry.register(name as JobName, definition as never);
    }
  }
  return platform;
}
