import type { AcademyModule, TaskFunction } from '../manifest.ts';

/**
 * Every scheduled task type, by the `task_type` of its scheduled_tasks row, as the modules contribute
 * them (`tasks` in their manifests).
 */
export function taskTypesOf(modules: readonly AcademyModule[]): Record<string, TaskFunction> {
  const types: Record<string, TaskFunction> = {};
  for (const module of modules) {
    for (const [type, work] of Object.entries(module.tasks ?? {})) {
      if (types[type]) throw new Error(`Task type ${type} is contributed twice (again by the ${module.name} module)`);
      types[type] = work;
    }
  }
  return types;
}
