import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { columns } from './columns.ts';

/**
 * People: the staff lifecycle's timestamps on users, the identity notifications (one email per
 * lifecycle move, delivered by a job) and the invitations' single-use acceptance tokens, of which
 * only a SHA-256 hash is stored.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const c = columns(dialect);

  for (const column of ['invited_at', 'activated_at', 'suspended_at', 'archived_at']) {
    await db.schema.alterTable('users').addColumn(column, c.timestamp).execute();
  }
  await db.schema.createIndex('users_admin_status').on('users').columns(['is_admin', 'status']).execute();

  await c
    .id(db.schema.createTable('notifications'))
    // invitation, activation, suspension, reactivation, archival.
    .addColumn('type', 'text', (col) => col.notNull())
    // queued, sent, failed.
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('user_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('recipient', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    // The organization's locale when the notification was made: the email's language.
    .addColumn('locale', 'text', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (col) => col.notNull())
    .addColumn('last_error', 'text')
    .addColumn('message_id', 'text')
    .addColumn('sent_at', c.timestamp)
    .addColumn('failed_at', c.timestamp)
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();
  for (const column of ['type', 'status', 'user_id', 'created_at', 'updated_at']) {
    await db.schema.createIndex(`notifications_${column}`).on('notifications').column(column).execute();
  }

  await c
    .id(db.schema.createTable('user_invitations'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    // The invitation email that carries the link; each sending attempt replaces the token.
    .addColumn('notification_id', 'integer', (col) => col.notNull().unique().references('notifications.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('expires_at', c.timestamp, (col) => col.notNull())
    // Set when the invitation is accepted, or closed by an activation through the administration.
    .addColumn('used_at', c.timestamp)
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('user_invitations_user').on('user_invitations').column('user_id').execute();
}
