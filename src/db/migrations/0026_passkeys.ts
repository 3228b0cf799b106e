import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { columns } from './columns.ts';

// Passkeys (CONTRACT, "Staff sign-in and the console"): a staff user's WebAuthn credentials (the
// public key only: the private key never leaves the authenticator), and the one-time challenges that
// a registration or a sign-in signs (only a hash of each is kept, until it is used or expires).
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const c = columns(dialect);
  await c
    .id(db.schema.createTable('passkeys'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('credential_id', 'text', (col) => col.notNull().unique())
    .addColumn('public_key', 'text', (col) => col.notNull())
    .addColumn('counter', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('transports', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('backed_up', c.bool, (col) => col.notNull().defaultTo(false))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('last_used_at', c.timestamp)
    .execute();
  await db.schema.createIndex('passkeys_by_user').on('passkeys').column('user_id').execute();

  await c
    .id(db.schema.createTable('webauthn_challenges'))
    .addColumn('challenge_hash', 'text', (col) => col.notNull().unique())
    .addColumn('purpose', 'text', (col) => col.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('expires_at', c.timestamp, (col) => col.notNull())
    .execute();
}
