import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** Small key/value facts about the running platform (seed marker, scheduler heartbeat, last health). */
export function createRuntimeStateRepository(db: Kysely<DB>) {
  return {
    get: async (key: string): Promise<string | undefined> =>
      (await db.selectFrom('runtime_state').select('value').where('key', '=', key).executeTakeFirst())?.value,

    set: async (key: string, value: string, at: string): Promise<void> => {
      await db
        .insertInto('runtime_state')
        .values({ key, value, updated_at: at })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: at }))
        .execute();
    },
  };
}
