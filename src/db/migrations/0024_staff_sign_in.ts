import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { columns } from './columns.ts';

// Staff sign-in (CONTRACT, "Staff sign-in and the console"): a password hash per staff user,
// server-side sessions (only a hash of the id is stored), one-time password-reset links (only a hash
// of the token; made when its email is sent, or for the demo's administrator), and the failed
// sign-ins per email that make further attempts wait.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const c = columns(dialect);
  await db.schema.alterTable('users').addColumn('password_hash', 'text').execute();
  await db.schema.alterTable('users').addColumn('password_changed_at', c.timestamp).execute();

  await c
    .id(db.schema.createTable('staff_sessions'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('id_hash', 'text', (col) => col.notNull().unique())
    .addColumn('method', 'text', (col) => col.notNull())
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('last_seen_at', c.timestamp, (col) => col.notNull())
    .addColumn('expires_at', c.timestamp, (col) => col.notNull())
    .addColumn('ended_at', c.timestamp)
    .addColumn('ended_reason', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('staff_sessions_by_user').on('staff_sessions').columns(['user_id', 'ended_at']).execute();

  await c
    .id(db.schema.createTable('password_resets'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('notification_id', 'integer')
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('expires_at', c.timestamp, (col) => col.notNull())
    .addColumn('used_at', c.timestamp)
    .execute();

  await c
    .id(db.schema.createTable('sign_in_failures'))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('at', c.timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('sign_in_failures_by_email').on('sign_in_failures').columns(['email', 'at']).execute();
}
