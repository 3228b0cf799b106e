import type { Command } from 'commander';
import type { CommandContext, Runner } from '../../cli/runner.ts';
import type { AcademyModule } from '../../modules/manifest.ts';
import { ValidationError } from '../../platform/errors.ts';
import { modules } from '../modules.ts';

/**
 * `academy admin <resource> <action> [ID] --data '<json>'`: the platform's own administration, for
 * everything the API only reads. Each module contributes its resources' actions (`admin` in its manifest).
 *
 * `--as ID` runs the action as that staff user rather than as the operator: the user must be active,
 * and only what their roles and permissions allow is done (the same rules as the API and the console).
 */
export function adminCommands(program: Command, run: Runner): void {
  const admin = program
    .command('admin')
    .description("The platform's administration: academy admin [--as USER_ID] <resource> <action> [ID] --data '<json>'")
    .option('--as <user-id>', 'act as this active staff user: their roles and permissions decide what may be done');
  const runAs: Runner = (fn, options) => run(async (command) => fn(await actingAs(command, admin.opts<{ as?: string }>().as)), options);
  for (const module of modules as readonly AcademyModule[]) module.admin?.(admin, runAs, modules);
}

/** The command's context acting as staff user `as` (an id), or as the operator when none is given. */
async function actingAs(command: CommandContext, as: string | undefined): Promise<CommandContext> {
  if (as === undefined) return command;
  const id = /^[1-9][0-9]{0,15}$/.test(as) ? Number(as) : Number.NaN;
  const user = Number.isSafeInteger(id) ? await command.services.users.get(command.ctx, id).catch(() => null) : null;
  if (user?.status !== 'active') throw ValidationError.field('as', `--as must name an active staff user; ${as} is not one.`);
  return {
    ...command,
    ctx: {
      ...command.ctx,
      actor: { kind: 'user', tokenId: null, userId: user.id, scopes: ['*'], permissions: user.effective_permissions, name: user.name },
    },
  };
}
