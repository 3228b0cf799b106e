import type { Kysely, Selectable } from 'kysely';
import type { DB, HealthCheckTable } from '../../db/schema.ts';

export type HealthCheckRow = Selectable<HealthCheckTable>;

/** runtime_state keys this module reads and writes. */
export const OVERALL_STATUS_KEY = 'health_status';
export const SCHEDULER_HEARTBEAT_KEY = 'scheduler_heartbeat';

export function createHealthRepository(db: Kysely<DB>) {
  return {
    listEnabled: async (): Promise<HealthCheckRow[]> =>
      db.selectFrom('health_checks').selectAll().where('enabled', '=', true).orderBy('id').execute(),

    findByName: async (name: string): Promise<HealthCheckRow | undefined> =>
      db.selectFrom('health_checks').selectAll().where('name', '=', name).executeTakeFirst(),

    /** The last status of every check, enabled or not (the metrics). */
    lastStatuses: async (): Promise<Pick<HealthCheckRow, 'name' | 'last_status'>[]> =>
      db.selectFrom('health_checks').select(['name', 'last_status']).execute(),

    recordStatus: async (name: string, status: string, at: string): Promise<void> => {
      await db
        .updateTable('health_checks')
        .set({ last_status: status, last_checked_at: at, updated_at: at })
        .where('name', '=', name)
        .execute();
    },

    stateValue: async (key: string): Promise<string | undefined> =>
      (await db.selectFrom('runtime_state').select('value').where('key', '=', key).executeTakeFirst())?.value,

    /**
     * Compare-and-set of the last overall status: true only for the one caller that moved it from
     * `previous` (undefined: never stored), so two concurrent runs cannot both report one change.
     */
    swapOverall: async (trx: Kysely<DB>, previous: string | undefined, current: string, at: string): Promise<boolean> => {
      if (previous === undefined) {
        const inserted = await trx
          .insertInto('runtime_state')
          .values({ key: OVERALL_STATUS_KEY, value: current, updated_at: at })
          .onConflict((oc) => oc.column('key').doNothing())
          .returning('key')
          .executeTakeFirst();
        return inserted !== undefined;
      }
      const result = await trx
        .updateTable('runtime_state')
        .set({ value: current, updated_at: at })
        .where('key', '=', OVERALL_STATUS_KEY)
        .where('value', '=', previous)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type HealthRepository = ReturnType<typeof createHealthRepository>;
