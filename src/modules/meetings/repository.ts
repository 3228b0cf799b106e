import type { Insertable, Kysely, Selectable } from 'kysely';
import { type ListRequest, listPage, type Page } from '../../db/list.ts';
import type { DB, MeetingTable } from '../../db/schema.ts';
import type { MeetingSort } from './schemas.ts';

export type MeetingRow = Selectable<MeetingTable>;

export function createMeetingRepository(db: Kysely<DB>) {
  return {
    list: async (sessionId: number | undefined, list: ListRequest<MeetingSort>): Promise<Page<MeetingRow>> => {
      let query = db.selectFrom('meetings').selectAll();
      if (sessionId !== undefined) query = query.where('session_id', '=', sessionId);
      return listPage(db, query, list, { sort: { id: 'id', held_on: 'held_on' } });
    },

    find: async (id: number, sessionId?: number, executor: Kysely<DB> = db): Promise<MeetingRow | undefined> => {
      let query = executor.selectFrom('meetings').selectAll().where('id', '=', id);
      if (sessionId !== undefined) query = query.where('session_id', '=', sessionId);
      return query.executeTakeFirst();
    },

    /** `also` runs in the insert's transaction with the new row (its audit event). */
    insert: async (values: Insertable<MeetingTable>, also?: (trx: Kysely<DB>, row: MeetingRow) => Promise<void>): Promise<MeetingRow> =>
      db.transaction().execute(async (trx) => {
        const row = await trx.insertInto('meetings').values(values).returningAll().executeTakeFirstOrThrow();
        await also?.(trx, row);
        return row;
      }),
  };
}

export type MeetingRepository = ReturnType<typeof createMeetingRepository>;
