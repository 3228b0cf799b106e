import type { Command } from 'commander';
import { idArgument } from '../../cli/ids.ts';
import { parseData, table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { validateInput } from '../../platform/validation.ts';
import { ResourceCreate } from './schemas.ts';

const COLUMNS = ['id', 'session_id', 'title', 'type', 'status', 'url', 'published_at'];

/** `academy admin resources create|publish|list`: learning resources of training sessions. */
export function adminResourceCommands(admin: Command, run: Runner): void {
  const resources = admin
    .command('resources')
    .description('Learning resources of training sessions: add one (draft or published), publish a draft, list them');

  resources
    .command('create')
    .description('Add a learning resource to a session (a draft unless status is published)')
    .requiredOption('--data <json>', '{"session_id":3,"title":"Slides","type":"link","url":"https://…","status":"draft"}')
    .action((options) =>
      run(async ({ services, out, ctx }) => {
        const input = validateInput(ResourceCreate, parseData(options.data));
        const resource = await services.resources.create(ctx, input);
        out.result(resource, `Resource ${resource.id} created (${resource.status}).\n${table([resource], COLUMNS)}`);
      }),
    );

  resources
    .command('publish <id>')
    .description('Publish a draft resource: it then shows through the API')
    .action((id: string) =>
      run(async ({ services, out, ctx }) => {
        const resource = await services.resources.publish(ctx, idArgument(id));
        out.result(resource, `Resource ${resource.id} published.`);
      }),
    );

  resources
    .command('list')
    .description('List resources, drafts included, of every session or of one')
    .option('--session <id>', 'only the resources of this session')
    .action((options: { session?: string }) =>
      run(async ({ services, out, ctx }) => {
        const list = { page: { page: 1, perPage: 10_000, offset: 0 }, sort: 'id', direction: 'asc' } as const;
        const sessionId = options.session === undefined ? undefined : idArgument(options.session);
        const { items } = await services.resources.listAll(ctx, sessionId, list);
        out.result(items, table(items, COLUMNS));
      }),
    );
}
