import type { Command } from 'commander';
import { idArgument } from '../../cli/ids.ts';
import { table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';

/** `webhooks list`, also `admin webhooks list` (every admin resource lists): the endpoints, never their secrets. */
export function listEndpoints(run: Runner): () => Promise<void> {
  return () =>
    run(async ({ services, out, ctx }) => {
      const list = await services.webhooks.list(ctx);
      const rows = list.map((e) => ({ ...e, events: e.events ?? 'all' }));
      out.result(list, table(rows, ['id', 'url', 'events', 'enabled', 'disabled_reason', 'created_at']));
    });
}

export function webhookCommands(program: Command, run: Runner): void {
  const webhooks = program
    .command('webhooks')
    .description('Manage outbound webhook endpoints (Standard Webhooks) and see their deliveries');

  webhooks
    .command('create')
    .description('Add an endpoint; its signing secret (whsec_…) is printed once')
    .requiredOption('--url <url>', 'the http(s) URL that receives POSTed events')
    .option('--events <list>', 'comma-separated event types (default: every webhook event type)')
    .action((options) =>
      run(async ({ services, out, ctx }) => {
        const events = options.events === undefined ? undefined : String(options.events).split(',');
        const { endpoint, secret } = await services.webhooks.create(ctx, { url: options.url, events });
        out.result(
          { ...endpoint, secret },
          `${secret}\n\nWebhook endpoint ${endpoint.id} created for ${endpoint.url} (events: ${endpoint.events?.join(', ') ?? 'all'}).\n` +
            'Store the secret now: it is not shown again. Verify deliveries with any Standard Webhooks library.',
        );
      }),
    );

  webhooks.command('list').description('List endpoints (never their secrets)').action(listEndpoints(run));

  webhooks
    .command('delete <id>')
    .description('Delete an endpoint and its delivery history; pending deliveries are dropped')
    .action((value: string) =>
      run(async ({ services, out, ctx }) => {
        const endpoint = await services.webhooks.delete(ctx, idArgument(value));
        out.result(endpoint, `Webhook endpoint ${endpoint.id} (${endpoint.url}) deleted.`);
      }),
    );

  webhooks
    .command('deliveries <id>')
    .description("An endpoint's recent deliveries, newest first")
    .option('--limit <n>', 'how many (1-500)', '50')
    .action((value: string, options) =>
      run(async ({ services, out, ctx }) => {
        const limit = Number(options.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new Error('--limit must be a whole number from 1 to 500');
        const list = await services.webhooks.deliveries(ctx, idArgument(value), limit);
        out.result(
          list,
          table(list as unknown as Record<string, unknown>[], [
            'id',
            'event_type',
            'event_id',
            'status',
            'attempts',
            'last_status_code',
            'last_error',
            'next_attempt_at',
            'completed_at',
          ]),
        );
      }),
    );
}
