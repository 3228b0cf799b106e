import type { Command } from 'commander';
import { adminIntegrationCommands } from './admin-integrations.ts';
import { adminTaskCommands } from './admin-tasks.ts';
import type { Runner } from './main.ts';

/**
 * `academy admin <resource> <action> [ID] --data '<json>'`: the platform's own administration, for
 * everything the API only reads. Each resource registers its actions here.
 */
export function adminCommands(program: Command, run: Runner): void {
  const admin = program
    .command('admin')
    .description("The platform's administration: academy admin <resource> <action> [ID] --data '<json>'");
  adminIntegrationCommands(admin, run);
  adminTaskCommands(admin, run);
}
