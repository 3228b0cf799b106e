import type { Command } from 'commander';
import { table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { NotFoundError } from '../../platform/errors.ts';

const COLUMNS = ['id', 'task_type', 'cron', 'timezone', 'enabled', 'next_run_at', 'last_run_at', 'last_outcome'];

/** `academy admin tasks list|enable|disable`: switch the scheduled tasks (they are read at GET /api/v1/tasks). */
export function adminTaskCommands(admin: Command, run: Runner): void {
  const tasks = admin.command('tasks').description('Scheduled tasks: list them, enable or disable one (by id or task type)');

  tasks
    .command('list')
    .description('List the scheduled tasks')
    .action(() =>
      run(async ({ services, out, ctx }) => {
        const service = services.tasks;
        const list = { page: { page: 1, perPage: 1000, offset: 0 }, sort: 'id', direction: 'asc' } as const;
        const { items } = await service.list(ctx, {}, list);
        out.result(items, table(items as unknown as Record<string, unknown>[], COLUMNS));
      }),
    );

  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    tasks
      .command(`${action} <task>`)
      .description(
        enabled
          ? 'Enable a task (id or task type, e.g. health.run_checks); its next run is scheduled from now'
          : 'Disable a task (id or task type); it is no longer scheduled and cannot be run',
      )
      .action((reference: string) =>
        run(async ({ services, out, ctx }) => {
          const task = await services.tasks.setEnabled(ctx, reference, enabled).catch((error) => {
            throw error instanceof NotFoundError ? new NotFoundError(`No task has the id or task type "${reference}".`) : error;
          });
          out.result(
            task,
            `Task ${task.id} (${task.task_type}) ${enabled ? 'enabled' : 'disabled'}.${task.next_run_at ? ` Next run: ${task.next_run_at}.` : ''}\n${JSON.stringify(task, null, 2)}`,
          );
        }),
      );
  }
}
