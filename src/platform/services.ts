/**
 * The services of the modules, by name, built once per process by the composition root
 * (`buildServices`, src/assembly/modules.ts) and handed to routes, jobs, tasks and commands. Each module
 * adds its own by declaration merging, beside the factory in its manifest (`AcademyModule.services`):
 *
 *     declare module '../../platform/services.ts' {
 *       interface Services { courses: CourseService }
 *     }
 *
 * Declared apart from the manifest so that the CLI runner can name it without an import cycle.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by each module (declaration merging).
export interface Services {}
