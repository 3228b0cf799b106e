import type { Kysely, Selectable } from 'kysely';
import type { DB, EventTable } from '../../db/schema.ts';

export type EventRow = Selectable<EventTable>;

export function createEventRepository(db: Kysely<DB>) {
  return {
    insert: async (trx: Kysely<DB>, event: EventRow): Promise<void> => {
      await trx.insertInto('events').values(event).execute();
    },
    findById: async (id: string): Promise<EventRow | undefined> =>
      db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst(),
    listByType: async (type: string): Promise<EventRow[]> =>
      db.selectFrom('events').selectAll().where('type', '=', type).orderBy('occurred_at').execute(),
  };
}

export type EventRepository = ReturnType<typeof createEventRepository>;
