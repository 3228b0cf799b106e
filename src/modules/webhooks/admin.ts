import type { Command } from 'commander';
import { idArgument } from '../../cli/ids.ts';
import { table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { listEndpoints } from './cli.ts';
import type { DeliveryView } from './service.ts';

const COLUMNS = ['id', 'endpoint_id', 'event_type', 'event_id', 'status', 'attempts', 'next_attempt_at'];

function described(delivery: DeliveryView, what: string): string {
  return (
    `${table([delivery as unknown as Record<string, unknown>], COLUMNS)}\n\n` +
    `${what} queued as delivery ${delivery.id} (webhook-id ${delivery.event_id}); a worker sends it. ` +
    `See its outcome with: academy webhooks deliveries ${delivery.endpoint_id}`
  );
}

/** `academy admin webhooks …`: operator actions on endpoints and deliveries that send something now. */
export function adminWebhookCommands(admin: Command, run: Runner): void {
  const webhooks = admin
    .command('webhooks')
    .description('Webhooks: list the endpoints, send a test ping to an endpoint, redeliver a delivery');

  webhooks.command('list').description('List endpoints (never their secrets), as `academy webhooks list` does').action(listEndpoints(run));

  webhooks
    .command('test <endpoint>')
    .description('Queue a signed `ping` event to this endpoint now (one attempt) and print the delivery')
    .action((id: string) =>
      run(async ({ services, out, ctx }) => {
        const delivery = await services.webhooks.test(ctx, idArgument(id));
        out.result(delivery, described(delivery, `A ping to endpoint ${delivery.endpoint_id}`));
      }),
    );

  webhooks
    .command('redeliver <delivery>')
    .description(
      'Queue one more attempt of a succeeded or failed delivery now, with the same webhook-id and body (receivers de-duplicate on it)',
    )
    .action((id: string) =>
      run(async ({ services, out, ctx }) => {
        const delivery = await services.webhooks.redeliver(ctx, idArgument(id));
        out.result(delivery, described(delivery, `Another attempt of ${delivery.event_type}`));
      }),
    );
}
