import type { Command } from 'commander';
import type { Runner } from '../../cli/runner.ts';
import type { AcademyModule } from '../../modules/manifest.ts';
import { modules } from '../modules.ts';

/**
 * `academy admin <resource> <action> [ID] --data '<json>'`: the platform's own administration, for
 * everything the API only reads. Each module contributes its resources' actions (`admin` in its manifest).
 */
export function adminCommands(program: Command, run: Runner): void {
  const admin = program
    .command('admin')
    .description("The platform's administration: academy admin <resource> <action> [ID] --data '<json>'");
  for (const module of modules as readonly AcademyModule[]) module.admin?.(admin, run, modules);
}
