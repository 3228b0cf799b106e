import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { forUpdate } from '../../db/locks.ts';
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

    /**
     * Updates the singleton. With `expect`, the current row is read first, locked for the transaction,
     * and `expect.check` throws to change nothing (a failed If-Match).
     */
    update: async (
      values: Updateable<OrganizationTable>,
      expect?: { dialect: Dialect; check: (current: OrganizationRow) => void },
    ): Promise<void> => {
      await db.transaction().execute(async (trx) => {
        if (expect) {
          const current = await forUpdate(
            trx.selectFrom('organization').selectAll().where('id', '=', 1),
            expect.dialect,
          ).executeTakeFirstOrThrow();
          expect.check(current);
        }
        await trx.updateTable('organization').set(values).where('id', '=', 1).execute();
        await changes.announce(trx);
      });
    },
  };
}

export type OrganizationRepository = ReturnType<typeof createOrganizationRepository>;
