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
     * and `expect.check` throws to change nothing (a failed If-Match); `expect.also` runs in the
     * transaction with the row as it was (the audit event).
     */
    update: async (
      values: Updateable<OrganizationTable>,
      expect?: {
        dialect: Dialect;
        check?: ((current: OrganizationRow) => void) | undefined;
        also?: (trx: Kysely<DB>, before: OrganizationRow) => Promise<void>;
      },
    ): Promise<void> => {
      await db.transaction().execute(async (trx) => {
        const current =
          expect &&
          (await forUpdate(trx.selectFrom('organization').selectAll().where('id', '=', 1), expect.dialect).executeTakeFirstOrThrow());
        if (current) expect?.check?.(current);
        await trx.updateTable('organization').set(values).where('id', '=', 1).execute();
        await changes.announce(trx);
        if (current) await expect?.also?.(trx, current);
      });
    },
  };
}

export type OrganizationRepository = ReturnType<typeof createOrganizationRepository>;
