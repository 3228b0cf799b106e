import { type Kysely, sql } from 'kysely';
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
