import type { Config } from '../config.ts';
import { applicationsModule } from '../modules/applications/module.ts';
import { assessmentsModule } from '../modules/assessments/module.ts';
import { auditModule } from '../modules/audit/module.ts';
import { certificatesModule } from '../modules/certificates/module.ts';
import { consoleModule } from '../modules/console/module.ts';
import { coursesModule } from '../modules/courses/module.ts';
import { documentsModule } from '../modules/documents/module.ts';
import { enrolmentsModule } from '../modules/enrolments/module.ts';
import { eventsModule } from '../modules/events/module.ts';
import { healthModule } from '../modules/health/module.ts';
import { idempotencyModule } from '../modules/idempotency/module.ts';
import { integrationsModule } from '../modules/integrations/module.ts';
import type { AcademyModule, ModuleContext } from '../modules/manifest.ts';
import { meetingsModule } from '../modules/meetings/module.ts';
import { notificationsModule } from '../modules/notifications/module.ts';
import { organizationModule } from '../modules/organization/module.ts';
import { reportsModule } from '../modules/reports/module.ts';
import { resourcesModule } from '../modules/resources/module.ts';
import { searchModule } from '../modules/search/module.ts';
import { sessionsModule } from '../modules/sessions/module.ts';
import { staffAuthModule } from '../modules/staff-auth/module.ts';
import { studentsModule } from '../modules/students/module.ts';
import { tasksModule } from '../modules/tasks/module.ts';
import { usersModule } from '../modules/users/module.ts';
import { webhooksModule } from '../modules/webhooks/module.ts';
import { workflowsModule } from '../modules/workflows/module.ts';
import type { JobName } from '../platform/jobs/names.ts';
import { createPlatform, type Platform, type PlatformOptions } from '../platform/platform.ts';
import type { Services } from '../platform/services.ts';

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
  staffAuthModule,
  notificationsModule,
  workflowsModule,
  documentsModule,
  reportsModule,
  searchModule,
  auditModule,
  consoleModule,
] as const satisfies readonly AcademyModule[];

// Every job that a module (or the platform) declares has a handler in some module: a declared job
// without one fails the typecheck here, naming it.
type JobsOf<M> = M extends { jobs: (context: ModuleContext) => infer Definitions } ? keyof Definitions : never;
type Handled = JobsOf<(typeof modules)[number]> | 'system.noop';
type Unhandled = Exclude<JobName, Handled>;
const everyJobHandled: [Unhandled] extends [never] ? true : { unhandled: Unhandled } = true;
void everyJobHandled;

// Every service that a module declares (in `Services`) is built by some module's manifest: a
// declared service without a factory fails the typecheck here, naming it.
type ServicesOf<M> = M extends { services: infer Factories } ? keyof Factories : never;
type Unbuilt = Exclude<keyof Services, ServicesOf<(typeof modules)[number]>>;
const everyServiceBuilt: [Unbuilt] extends [never] ? true : { unbuilt: Unbuilt } = true;
void everyServiceBuilt;

/** A process's platform and its services, each built once: what `serve`, `worker`, the CLI and tests run. */
export interface Assembly {
  platform: Platform;
  services: Services;
}

/**
 * The composition root of the services: every module's factories (AcademyModule.services) over one
 * platform. Each service is built at its first use and then kept, so a process holds one instance of
 * each, whatever asks for it (routes, jobs, tasks, commands), and a one-shot command builds only the
 * ones it uses. A factory reads the services it needs from `ctx.services`, which builds them first, in
 * whatever order the modules are listed; services that need each other fail at once, naming the cycle.
 */
export function buildServices(platform: Platform, from: readonly AcademyModule[] = modules): Services {
  const services = {} as Services;
  const context: ModuleContext = { platform, services, modules: from };
  const building: string[] = [];
  for (const module of from) {
    for (const [name, factory] of Object.entries(module.services ?? {}) as [string, (ctx: ModuleContext) => unknown][]) {
      if (Object.hasOwn(services, name)) throw new Error(`Two modules build a service named ${name} (the second: ${module.name}).`);
      Object.defineProperty(services, name, {
        enumerable: true,
        configurable: true,
        get() {
          if (building.includes(name))
            throw new Error(`Services that need each other cannot be built: ${[...building, name].join(' → ')}.`);
          building.push(name);
          let service: unknown;
          try {
            service = factory(context);
          } finally {
            building.pop();
          }
          // Built: from now on the property holds the service itself.
          Object.defineProperty(services, name, { value: service, enumerable: true });
          return service;
        },
      });
    }
  }
  return services;
}

/** Every module's own configuration checked (AcademyModule.checkConfig): `serve` and `worker` call it as they start. */
export function checkModuleConfig({ platform, services }: Assembly): void {
  for (const module of modules as readonly AcademyModule[]) module.checkConfig?.({ platform, services, modules });
}

/** A platform, its services and every module's job handlers registered: what `serve`, `worker`, the CLI and tests run. */
export function assemble(config: Config, options: PlatformOptions = {}): Assembly {
  const platform = createPlatform(config, options);
  const services = buildServices(platform);
  const context: ModuleContext = { platform, services, modules };
  for (const module of modules as readonly AcademyModule[]) {
    for (const [name, definition] of Object.entries(module.jobs?.(context) ?? {})) {
      platform.registry.register(name as JobName, definition as never);
    }
  }
  return { platform, services };
}
