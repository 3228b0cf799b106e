import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { type Database, openDatabase } from './database.ts';
import { migrationsFor, tablesToVacuum } from './migrations/index.ts';

export interface MigrationOutcome {
  applied: string[];
}

/**
 * Applies pending migrations, each in its own transaction; concurrent starts wait on a lock; then, on
 * PostgreSQL, vacuums the tables that the applied ones filled and ask for it (`vacuumAfter`). On
 * PostgreSQL they run on a connection of their own, free of the request timeouts: building an index on
 * a big table may take minutes, and waiting for the previous version's transactions to end is expected.
 */
export async function migrate(database: Database): Promise<MigrationOutcome> {
  // Every process start and one-shot command migrates first. When nothing is pending they must not
  // queue on the migration lock (held in turn by every other command starting at that moment) nor
  // open a connection of their own: a read of the applied names settles it.
  if (await upToDate(database)) return { applied: [] };
  const own = database.dialect === 'postgres' && database.timeouts ? openDatabase(database.url) : null;
  try {
    const outcome = await apply(own ?? database);
    if (database.dialect === 'postgres') {
      for (const table of tablesToVacuum(outcome.applied)) {
        await sql`vacuum (analyze) ${sql.table(table)}`.execute((own ?? database).db).catch((error: unknown) => {
          const reason = error instanceof Error ? error.message : String(error);
          throw new Error(`Migrations ${outcome.applied.join(', ')} applied, but vacuuming ${table} failed (autovacuum will): ${reason}`, {
            cause: error,
          });
        });
      }
    }
    return outcome;
  } finally {
    await own?.close();
  }
}

/**
 * Whether exactly the known migrations are applied. Anything else (a new database, a pending
 * migration, one applied by a newer version) takes the locked path, which applies or refuses.
 */
async function upToDate(database: Database): Promise<boolean> {
  const known = Object.keys(migrationsFor(database.dialect));
  let applied: string[];
  try {
    applied = (await sql<{ name: string }>`select name from schema_migrations`.execute(database.db)).rows.map((row) => row.name);
  } catch {
    return false;
  }
  const done = new Set(applied);
  return done.size === known.length && known.every((name) => done.has(name));
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
