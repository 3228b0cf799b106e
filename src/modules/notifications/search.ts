import type { SearchGroup } from '../manifest.ts';

/** The `notifications` group of GET /search: identity notifications by recipient or subject, newest first. */
export const notificationSearch: SearchGroup = {
  name: 'notifications',
  scopes: ['identity-notifications:read'],
  columns: ['recipient', 'subject', 'type', 'status'],
  order: 'id',
  direction: 'desc',
  matches: ({ db, match }) =>
    db
      .selectFrom('notifications')
      .select(['notifications.id', 'notifications.recipient', 'notifications.subject', 'notifications.type', 'notifications.status'])
      .where(match('notifications')),
  hit: (row: { id: number; recipient: string; subject: string; type: string; status: string }) => ({
    id: row.id,
    type: 'notification',
    title: row.subject,
    path: `/api/v1/notifications/${row.id}`,
    recipient: row.recipient,
    notification_type: row.type,
    status: row.status,
  }),
};
