import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { columns } from './columns.ts';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const c = columns(dialect);
  const now = new Date().toISOString();

  await db.schema
    .createTable('organization')
    .addColumn('id', 'integer', (col) => col.primaryKey().check(sql`id = 1`))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('legal_name', 'text')
    .addColumn('timezone', 'text', (col) => col.notNull())
    .addColumn('locale', 'text', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('contact_email', 'text')
    .addColumn('phone', 'text')
    .addColumn('website', 'text')
    .addColumn('address_line1', 'text')
    .addColumn('address_line2', 'text')
    .addColumn('address_city', 'text')
    .addColumn('address_region', 'text')
    .addColumn('address_postal_code', 'text')
    .addColumn('address_country', 'text')
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();
  // The organization is a singleton: it exists from the first migration on.
  await db
    .insertInto('organization')
    .values({ id: 1, name: 'Academy', timezone: 'UTC', locale: 'en', currency: 'EUR', created_at: now, updated_at: now })
    .execute();

  await c
    .id(db.schema.createTable('users'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('is_admin', c.bool, (col) => col.notNull().defaultTo(false))
    .addColumn('permissions', c.json, (col) => col.notNull().defaultTo('[]'))
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();

  await c
    .id(db.schema.createTable('api_tokens'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('token_prefix', 'text', (col) => col.notNull())
    .addColumn('scopes', c.json, (col) => col.notNull())
    .addColumn('user_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('expires_at', c.timestamp)
    .addColumn('last_used_at', c.timestamp)
    .addColumn('revoked_at', c.timestamp)
    .addColumn('rotated_to_id', 'integer')
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .execute();

  await c
    .id(db.schema.createTable('idempotency_keys'))
    .addColumn('token_id', 'integer', (col) => col.notNull().references('api_tokens.id').onDelete('cascade'))
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('request_hash', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_headers', c.json)
    .addColumn('response_body', 'text')
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('expires_at', c.timestamp, (col) => col.notNull())
    .addUniqueConstraint('idempotency_keys_token_key', ['token_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expires_at').on('idempotency_keys').column('expires_at').execute();
}
