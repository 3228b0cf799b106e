import type { Command } from 'commander';
import { parseData, table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { validateInput } from '../../platform/validation.ts';
import { WORKFLOW_KEYS } from './definitions.ts';
import { WorkflowCreate, type WorkflowInstance } from './schemas.ts';

const COLUMNS = ['id', 'workflow', 'state', 'subject', 'assignee', 'allowed_transitions', 'updated_at'];

function rows(instances: WorkflowInstance[]): Record<string, unknown>[] {
  return instances.map((instance) => ({
    ...instance,
    subject: instance.subject_id === null ? null : `${instance.subject_type} ${instance.subject_id}`,
    assignee: instance.assignee && `${instance.assignee.name} (${instance.assignee.id})`,
  }));
}

/** `academy admin workflows create|list`: approval workflow instances (decided over the API). */
export function adminWorkflowCommands(admin: Command, run: Runner): void {
  const workflows = admin
    .command('workflows')
    .description(`Workflow instances (${WORKFLOW_KEYS.join(', ')}): open one, list them; decisions are made over the API`);

  workflows
    .command('create')
    .description('Open a workflow instance in its initial state, optionally about a subject and with an assignee (an active staff user)')
    .requiredOption('--data <json>', '{"workflow":"course_approval","subject_type":"course","subject_id":3,"assignee_id":7}')
    .action((options) =>
      run(async ({ services, out, ctx }) => {
        const input = validateInput(WorkflowCreate, parseData(options.data));
        const instance = await services.workflows.create(ctx, input);
        out.result(
          instance,
          `Workflow ${instance.id} (${instance.workflow}) opened: ${instance.state}.\n${table(rows([instance]), COLUMNS)}`,
        );
      }),
    );

  workflows
    .command('list')
    .description('List workflow instances')
    .option('--workflow <key>', `only instances of this workflow (${WORKFLOW_KEYS.join(', ')})`)
    .option('--state <state>', 'only instances in this state')
    .action((options: { workflow?: string; state?: string }) =>
      run(async ({ services, out, ctx }) => {
        const list = { page: { page: 1, perPage: 10_000, offset: 0 }, sort: 'id', direction: 'asc' } as const;
        const { items } = await services.workflows.list(ctx, { workflow: options.workflow, state: options.state }, list);
        out.result(items, table(rows(items), COLUMNS));
      }),
    );
}
