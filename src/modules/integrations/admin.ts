import type { Command } from 'commander';
import { parseData, table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { validateInput } from '../../platform/validation.ts';
import { IntegrationCreate } from './schemas.ts';

/** `academy admin integrations create|list|enable|disable`: the outbound integration endpoints. */
export function adminIntegrationCommands(admin: Command, run: Runner): void {
  const integrations = admin
    .command('integrations')
    .description('Outbound integration endpoints (their messages are at GET /api/v1/integrations)');

  integrations
    .command('create')
    .description('Add an integration endpoint')
    .requiredOption(
      '--data <json>',
      '{"key":"crm","name":"CRM","url":"https://…","events":["enrollment.created"],"auth_header":"Bearer …"}; events omitted = every webhook event type',
    )
    .action((options) =>
      run(async ({ services, out, ctx }) => {
        const input = validateInput(IntegrationCreate, parseData(options.data));
        const integration = await services.integrations.create(ctx, input);
        out.result(integration, JSON.stringify(integration, null, 2));
      }),
    );

  integrations
    .command('list')
    .description('List integration endpoints (credentials masked)')
    .action(() =>
      run(async ({ services, out, ctx }) => {
        const list = await services.integrations.listIntegrations(ctx);
        const rows = list.map((i) => ({ ...i, events: i.events ?? 'all' }));
        out.result(list, table(rows, ['id', 'key', 'name', 'url', 'events', 'auth_header', 'enabled']));
      }),
    );

  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    integrations
      .command(`${action} <key>`)
      .description(
        enabled
          ? 'Enable an integration again; its failed messages may then be retried'
          : 'Disable an integration: it gets no new messages, queued ones fail unsent, failed ones cannot be retried',
      )
      .action((key: string) =>
        run(async ({ services, out, ctx }) => {
          const integration = await services.integrations.setEnabled(ctx, key, enabled).catch((error) => {
            throw error instanceof NotFoundError ? new NotFoundError(`No integration has the key "${key}".`) : error;
          });
          out.result(integration, `Integration ${integration.key} ${enabled ? 'enabled' : 'disabled'}.`);
        }),
      );
  }
}
