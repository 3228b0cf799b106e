import { Migrator } from 'kysely/migration';
import { type Database, openDatabase } from './database.ts';
import { migrationsFor } from './migrations/index.ts';

export interface MigrationOutcome {
  applied: string[];
}

/**
 * Applies pending migrations, each in its own transaction; concurrent starts wait on a lock. On
 * PostgreSQL they run on a connection of their own, free of the request timeouts: building an index on
 * a big table may take minutes, and waiting for the previous version's transactions to end is expected.
 */
export async function migrate(database: Database): Promise<MigrationOutcome> {
  const own = database.dialect === 'postgres' && database.timeouts ? openDatabase(database.url) : null;
  try {
    return await apply(own ?? database);
  } finally {
    await own?.close();
  }
}

async function apply(database: Database): Promise<MigrationOutcome> {
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrationsFor(database.dialect) },
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    const reason = error instanceof Error ? error.message : String(error);
    // The cause is kept: a database that cannot be reached is told apart from a broken migration.
    throw new Error(failed ? `Migration ${failed} failed: ${reason}` : `Could not migrate the database: ${reason}`, { cause: error });
  }
  return { applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName) };
}
