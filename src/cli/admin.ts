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

/** Parses the `--data` option of an admin action; a clear error for bad JSON. */
export function parseData(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new Error('--data must be a JSON object, e.g. --data \'{"name": "x"}\'');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('--data must be a JSON object');
  return value as Record<string, unknown>;
}
