import type { Command } from 'commander';
import { idArgument } from '../../cli/ids.ts';
import { parseData, table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { PERMISSION_NAMES, ROLE_NAMES } from '../../platform/permissions.ts';
import { validateInput } from '../../platform/validation.ts';
import { StaffCreate, USER_STATES, UserGrant, UserPatch, type UserState } from './schemas.ts';
import type { UserService } from './service.ts';

/** How long the link of `users create --activate-with-link` works. */
const FIRST_LINK_TTL_MS = 24 * 3_600_000;

const COLUMNS = ['id', 'name', 'email', 'job_title', 'status', 'roles', 'effective_permissions'];

/**
 * `academy admin users …`: staff users. Besides what the API offers, the administration grants
 * roles and permissions and activates invited users (as accepting the invitation does).
 */
export function adminUserCommands(admin: Command, run: Runner): void {
  const users = admin.command('users').description('Staff users: create, move through their lifecycle, grant roles and permissions, list');

  users
    .command('create')
    .description('Create a staff user in draft (nothing is sent until it is invited)')
    .requiredOption('--data <json>', '{"name":"Grace Hopper","email":"grace@example.org","job_title":"Registrar","roles":["registrar"]}')
    .option(
      '--activate-with-link',
      'create the user active and print a one-time link (valid 24 hours) that sets their password and signs them in: the first administrator, without mail',
    )
    .action((options: { data: string; activateWithLink?: boolean }) =>
      run(async ({ services, out, ctx }) => {
        const input = validateInput(StaffCreate, parseData(options.data));
        if (!options.activateWithLink) {
          const user = await services.users.create(ctx, input);
          out.result(user, `User ${user.id} (${user.email}) created in draft.\n${table([user], COLUMNS)}`);
          return;
        }
        const user = await services.users.create(ctx, input, { active: true });
        const link = await services.staffAuth.signInLink(user.id, FIRST_LINK_TTL_MS);
        out.result(
          { ...user, sign_in_link: link },
          `User ${user.id} (${user.email}) created active.\n${table([user], COLUMNS)}\nGive them this one-time link (it works once, for 24 hours) to choose a password and sign in:\n  ${link}`,
        );
      }),
    );

  users
    .command('update <id>')
    .description('Change the name, email or job title of a staff user')
    .requiredOption('--data <json>', '{"job_title":"Head of training"}')
    .action((id: string, options) =>
      run(async ({ services, out, ctx }) => {
        const userId = idArgument(id);
        const user = await services.users.update(ctx, userId, validateInput(UserPatch, parseData(options.data)));
        out.result(user, table([user], COLUMNS));
      }),
    );

  const moves: [keyof Pick<UserService, 'invite' | 'activate' | 'suspend' | 'reactivate' | 'archive'>, string][] = [
    ['invite', 'Invite a draft user: emails an acceptance link (draft → invited)'],
    ['activate', 'Activate an invited user, as accepting the invitation does (invited → active); emails the activation notice'],
    ['suspend', 'Suspend an active user (active → suspended)'],
    ['reactivate', 'Reactivate a suspended user (suspended → active)'],
    ['archive', 'Archive a user, for good (from every state but archived)'],
  ];
  for (const [move, description] of moves) {
    users
      .command(`${move} <id>`)
      .description(description)
      .action((id: string) =>
        run(async ({ services, out, ctx }) => {
          const user = await services.users[move](ctx, idArgument(id));
          out.result(user, `User ${user.id} (${user.email}) is now ${user.status}; the notification is queued.`);
        }),
      );
  }

  users
    .command('grant <id>')
    .description(
      `Replace a staff user's roles, permissions or both (roles: ${ROLE_NAMES.join(', ')}; permissions: ${PERMISSION_NAMES.join(', ')})`,
    )
    .requiredOption('--data <json>', '{"roles":["registrar"],"permissions":["courses.approve"]}')
    .action((id: string, options) =>
      run(async ({ services, out, ctx }) => {
        const userId = idArgument(id);
        const user = await services.users.grant(ctx, userId, validateInput(UserGrant, parseData(options.data)));
        const roles = user.roles.length ? user.roles.join(', ') : '(no roles)';
        const held = user.effective_permissions.length ? user.effective_permissions.join(', ') : '(none: reads only)';
        out.result(user, `User ${user.id} now has the roles ${roles}, and may: ${held}.`);
      }),
    );

  users
    .command('sign-out <id>')
    .description('End every console session of a staff user (they must sign in again)')
    .action((id: string) =>
      run(async ({ services, out, ctx }) => {
        const userId = idArgument(id);
        const ended = await services.staffAuth.signOutUser(ctx, userId);
        out.result({ user_id: userId, sessions_ended: ended }, `User ${userId}: ${ended} session${ended === 1 ? '' : 's'} ended.`);
      }),
    );

  users
    .command('list')
    .description('List the staff users')
    .option('--status <status>', `only users in this state (${USER_STATES.join(', ')})`)
    .action((options: { status?: string }) =>
      run(async ({ services, out, ctx }) => {
        if (options.status !== undefined && !(USER_STATES as readonly string[]).includes(options.status)) {
          throw new Error(`--status must be one of ${USER_STATES.join(', ')}`);
        }
        const list = { page: { page: 1, perPage: 10_000, offset: 0 }, sort: 'id', direction: 'asc' } as const;
        const { items } = await services.users.list(ctx, { status: options.status as UserState | undefined }, list);
        out.result(items, table(items, COLUMNS));
      }),
    );
}
