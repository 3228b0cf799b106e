import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { columns } from './columns.ts';

// A staff user's roles (CONTRACT, "Staff sign-in and the console"), beside the permissions granted
// directly: a JSON array of role names, none for every user there is.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('roles', columns(dialect).json, (col) => col.notNull().defaultTo('[]'))
    .execute();
}
