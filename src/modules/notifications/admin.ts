import type { Command } from 'commander';
import { table } from '../../cli/output.ts';
import type { Runner } from '../../cli/runner.ts';
import { NOTIFICATION_STATUSES, NOTIFICATION_TYPES, type NotificationStatus, type NotificationType } from './schemas.ts';

const COLUMNS = ['id', 'type', 'status', 'user_id', 'recipient', 'attempts', 'sent_at', 'last_error'];

/** `academy admin notifications list`: the identity emails and how their delivery went. */
export function adminNotificationCommands(admin: Command, run: Runner): void {
  const notifications = admin.command('notifications').description('Identity notifications: the emails of the staff lifecycle');

  notifications
    .command('list')
    .description('List notifications, newest last')
    .option('--type <type>', `only this type (${NOTIFICATION_TYPES.join(', ')})`)
    .option('--status <status>', `only this delivery status (${NOTIFICATION_STATUSES.join(', ')})`)
    .action((options: { type?: string; status?: string }) =>
      run(async ({ services, out, ctx }) => {
        if (options.type !== undefined && !(NOTIFICATION_TYPES as readonly string[]).includes(options.type)) {
          throw new Error(`--type must be one of ${NOTIFICATION_TYPES.join(', ')}`);
        }
        if (options.status !== undefined && !(NOTIFICATION_STATUSES as readonly string[]).includes(options.status)) {
          throw new Error(`--status must be one of ${NOTIFICATION_STATUSES.join(', ')}`);
        }
        const filter = { type: options.type as NotificationType | undefined, status: options.status as NotificationStatus | undefined };
        const list = { page: { page: 1, perPage: 10_000, offset: 0 }, sort: 'id', direction: 'asc' } as const;
        const { items } = await services.notifications.list(ctx, filter, list);
        out.result(items, table(items, COLUMNS));
      }),
    );
}
