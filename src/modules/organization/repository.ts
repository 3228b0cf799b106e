import type { Kysely, Selectable, Updateable } from 'kysely';
import type { DB, OrganizationTable } from '../../db/schema.ts';

export type OrganizationRow = Selectable<OrganizationTable>;

export function createOrganizationRepository(db: Kysely<DB>) {
  return {
    get: async (): Promise<OrganizationRow> => db.selectFrom('organization').selectAll().where('id', '=', 1).executeTakeFirstOrThrow(),

    update: async (changes: Updateable<OrganizationTable>): Promise<void> => {
      await db.updateTable('organization').set(changes).where('id', '=', 1).execute();
    },
  };
}

export type OrganizationRepository = ReturnType<typeof createOrganizationRepository>;
