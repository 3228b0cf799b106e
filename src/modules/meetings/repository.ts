import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { type ListRequest, listPage, type Page } from '../../db/list.ts';
import type { DB, MeetingTable } from '../../db/schema.ts';
import { type SearchRows, searchRows, textMatch } from '../../db/search.ts';
import type { MeetingSort } from './schemas.ts';

export type MeetingRow = Selectable<MeetingTable>;

export function createMeetingRepository(db: Kysely<DB>) {
  return {
    list: async (sessionId: number | undefined, list: ListRequest<MeetingSort>): Promise<Page<MeetingRow>> => {
      let query = db.selectFrom('meetings').selectAll();
      if (sessionId !== undefined) query = query.where('session_id', '=', sessionId);
      return listPage(query, list, { sort: { id: 'id', held_on: 'held_on' } });
    },

    find: async (id: number, sessionId?: number, executor: Kysely<DB> = db): Promise<MeetingRow | undefined> => {
      let query = executor.selectFrom('meetings').selectAll().where('id', '=', id);
      if (sessionId !== undefined) query = query.where('session_id', '=', sessionId);
      return query.executeTakeFirst();
    },

    insert: async (values: Insertable<MeetingTable>): Promise<MeetingRow> =>
      db.insertInto('meetings').values(values).returningAll().executeTakeFirstOrThrow(),
  };
}

export type MeetingRepository = ReturnType<typeof createMeetingRepository>;

/** Meetings whose location contains `text` (GET /search), by day. */
export function searchMeetings(
  db: Kysely<DB>,
  dialect: Dialect,
  text: string,
  limit: number,
): Promise<SearchRows<{ id: number; location: string | null; held_on: string; status: string; session_id: number; course: string }>> {
  const query = db
    .selectFrom('meetings')
    .innerJoin('training_sessions', 'training_sessions.id', 'meetings.session_id')
    .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
    .select(['meetings.id', 'meetings.location', 'meetings.held_on', 'meetings.status', 'meetings.session_id', 'courses.slug as course'])
    .where(textMatch(dialect, 'meetings', text));
  return searchRows(db, query, { limit, order: 'held_on' });
}
