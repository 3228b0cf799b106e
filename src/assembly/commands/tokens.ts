import type { Command } from 'commander';
import { idArgument } from '../../cli/ids.ts';
import { table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { ValidationError } from '../../platform/errors.ts';
import type { TokenView } from '../../platform/tokens/service.ts';

const COLUMNS = ['id', 'name', 'prefix', 'scopes', 'user_id', 'expires_at', 'last_used_at', 'revoked_at'];

/** Names the command's options (`--expires-in-days`) in the service's field errors (`expires_in_days`). */
function asOptions(error: unknown): never {
  if (!(error instanceof ValidationError) || !error.details) throw error;
  throw new ValidationError(
    Object.fromEntries(Object.entries(error.details).map(([field, messages]) => [`--${field.replaceAll('_', '-')}`, messages])),
  );
}

function scopes(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function tokenCommands(program: Command, run: Runner): void {
  const tokens = program.command('tokens').description('Create, list, revoke, rotate and re-scope API tokens');

  tokens
    .command('create')
    .description('Create a token; it is printed once and only its hash is stored')
    .requiredOption('--name <name>', 'a name to recognise the token by')
    .requiredOption('--scopes <list>', 'comma-separated scopes, or * for every scope')
    .option('--user <email>', 'the acting user (needed for workflow actions)')
    .option('--expires-in-days <days>', 'days until expiry (default: ACADEMY_TOKEN_TTL_DAYS)')
    .option('--no-expiry', 'the token never expires')
    .action((options) =>
      run(async ({ platform, out, ctx }) => {
        if (options.expiresInDays !== undefined && !/^\d+$/.test(options.expiresInDays)) {
          throw new Error('--expires-in-days must be a positive whole number');
        }
        if (options.expiresInDays !== undefined && options.expiry === false) {
          throw new Error('--expires-in-days and --no-expiry cannot be combined');
        }
        const issued = await platform.tokens
          .create(
            {
              name: options.name,
              scopes: scopes(options.scopes),
              userEmail: options.user,
              expiresInDays:
                options.expiry === false ? null : options.expiresInDays === undefined ? undefined : Number(options.expiresInDays),
            },
            ctx,
          )
          .catch(asOptions);
        out.result(
          { token: issued.token, ...issued.record },
          `${issued.token}\n\nToken ${issued.record.id} (${issued.record.name}) created. Store it now: it is not shown again.`,
        );
      }),
    );

  tokens
    .command('list')
    .description('List tokens (never their secret)')
    .action(() =>
      run(async ({ platform, out }) => {
        const list = await platform.tokens.list();
        out.result(list, table(list as unknown as Record<string, unknown>[], COLUMNS));
      }),
    );

  tokens
    .command('revoke <id>')
    .description('Revoke a token; it stops working at once')
    .action((value: string) =>
      run(async ({ platform, out, ctx }) => {
        const token: TokenView = await platform.tokens.revoke(idArgument(value), ctx);
        out.result(token, `Token ${token.id} revoked.`);
      }),
    );

  tokens
    .command('rotate <id>')
    .description('Replace a token with a new secret; the old one stops working at once')
    .action((value: string) =>
      run(async ({ platform, out, ctx }) => {
        const issued = await platform.tokens.rotate(idArgument(value), ctx);
        out.result(
          { token: issued.token, ...issued.record },
          `${issued.token}\n\nToken ${value} rotated; the replacement is token ${issued.record.id}. Store it now: it is not shown again.`,
        );
      }),
    );

  tokens
    .command('scopes <id>')
    .description("Replace a token's scopes")
    .requiredOption('--set <list>', 'comma-separated scopes, or *')
    .action((value: string, options) =>
      run(async ({ platform, out, ctx }) => {
        const token = await platform.tokens.setScopes(idArgument(value), scopes(options.set), ctx);
        out.result(token, `Token ${token.id} now has scopes: ${token.scopes.join(', ')}`);
      }),
    );
}
