import { type Insertable, type Kysely, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

/** The tables whose rows make a database "in use" for the seeds: people and the catalogue. */
const OWN_DATA = ['users', 'courses', 'training_sessions', 'course_applications', 'enrolments', 'certificates'] as const;

export function createDemoRepository(db: Kysely<DB>) {
  return {
    /** Whether any user or any part of the catalogue exists. */
    holdsPeopleOrCatalogue: async (): Promise<boolean> => {
      for (const table of OWN_DATA) {
        const row = await db.selectFrom(table).select(sql`1`.as('one')).limit(1).executeTakeFirst();
        if (row) return true;
      }
      return false;
    },
  };
}

/** The tables the scale seed fills, in an order that satisfies their foreign keys. */
export const BULK_TABLES = ['users', 'courses', 'training_sessions', 'enrolments', 'certificates', 'course_applications'] as const;
export type BulkTable = (typeof BULK_TABLES)[number];

/** Bound parameters per statement: SQLite allows 32766, PostgreSQL 65535; both are kept well below. */
const PARAMETERS = { sqlite: 30_000, postgres: 60_000 } as const;
/** Beyond this many rows a statement gains nothing and costs memory. */
const MAX_ROWS = 5000;

/**
 * Multi-row inserts for loading large data sets (the benchmark data of `academy seed --scale`):
 * rows carry their own ids, so that rows of other tables can refer to them without reading anything
 * back. Only for an empty catalogue; the services are the way to change real data.
 */
export function createBulkRepository(db: Kysely<DB>, dialect: Dialect) {
  return {
    /** How many rows of `columns` columns one statement takes on this database. */
    rowsPerStatement: (columns: number): number => Math.max(1, Math.min(MAX_ROWS, Math.floor(PARAMETERS[dialect] / columns))),

    insert: async <T extends BulkTable>(trx: Kysely<DB>, table: T, rows: readonly Insertable<DB[T]>[]): Promise<void> => {
      if (rows.length === 0) return;
      await (trx as Kysely<any>)
        .insertInto(table)
        .values(rows as never)
        .execute();
    },

    /** The highest id of each table (0 when empty): new rows are numbered after it. */
    maxIds: async (): Promise<Record<BulkTable, number>> => {
      const ids = {} as Record<BulkTable, number>;
      for (const table of BULK_TABLES) {
        const row = await (db as Kysely<any>).selectFrom(table).select(sql<number | string | null>`max(id)`.as('id')).executeTakeFirst();
        ids[table] = Number(row?.id ?? 0);
      }
      return ids;
    },

    /** Row counts of the tables. */
    counts: async (): Promise<Record<BulkTable, number>> => {
      const counts = {} as Record<BulkTable, number>;
      for (const table of BULK_TABLES) {
        const row = await (db as Kysely<any>).selectFrom(table).select(sql<number | string>`count(*)`.as('n')).executeTakeFirstOrThrow();
        counts[table] = Number(row.n);
      }
      return counts;
    },

    /**
     * After rows were inserted with their ids: PostgreSQL's identity sequences continue after the
     * highest id (SQLite's AUTOINCREMENT keeps track by itself), and both databases refresh the
     * statistics their planners choose indexes by. Not inside a transaction (VACUUM cannot run in one).
     */
    finish: async (): Promise<void> => {
      if (dialect === 'postgres') {
        for (const table of BULK_TABLES) {
          await sql`select setval(pg_get_serial_sequence(${table}, 'id'), greatest((select max(id) from ${sql.table(table)}), 1))`.execute(
            db,
          );
        }
        // VACUUM also marks the new pages all-visible, so that counts can be answered from indexes alone.
        await sql`vacuum analyze`.execute(db);
      } else {
        await sql`analyze`.execute(db);
      }
    },
  };
}

export type BulkRepository = ReturnType<typeof createBulkRepository>;
