import type { Kysely, Selectable, Updateable } from 'kysely';
import { prepare } from '../../db/prepared.ts';
import type { DB, OrganizationTable } from '../../db/schema.ts';
import type { ChangeFeed } from '../../platform/changes.ts';

export type OrganizationRow = Selectable<OrganizationTable>;

export function createOrganizationRepository(db: Kysely<DB>, changes: ChangeFeed) {
  const singleton = prepare(db, db.selectFrom('organization').selectAll().where('id', '=', 1));
  return {
    get: async (): Promise<OrganizationRow> => {
      const row = (await singleton(1))[0];
      if (!row) throw new Error('The organization row is missing; run the migrations.');
      return row;
    },

    update: async (values: Updateable<OrganizationTable>): Promise<void> => {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('organization').set(values).where('id', '=', 1).execute();
        await changes.announce(trx);
      });
    },
  };
}

export type OrganizationRepository = ReturnType<typeof createOrganizationRepository>;
