import type { Insertable, Kysely, Selectable } from 'kysely';
import { type ListRequest, listPage, type Page } from '../../db/list.ts';
import type { DB, LearningResourceTable } from '../../db/schema.ts';
import type { ResourceSort, ResourceStatus } from './schemas.ts';

export type ResourceRow = Selectable<LearningResourceTable>;

export function createResourceRepository(db: Kysely<DB>) {
  return {
    list: async (
      filter: { sessionId?: number | undefined; status?: ResourceStatus | undefined },
      list: ListRequest<ResourceSort>,
    ): Promise<Page<ResourceRow>> => {
      let query = db.selectFrom('learning_resources').selectAll();
      if (filter.sessionId !== undefined) query = query.where('session_id', '=', filter.sessionId);
      if (filter.status !== undefined) query = query.where('status', '=', filter.status);
      return listPage(db, query, list, { sort: { id: 'id', title: 'title', published_at: 'published_at' } });
    },

    /** A resource of a session; only a published one unless `status` is omitted. */
    find: async (
      id: number,
      filter: { sessionId?: number; status?: ResourceStatus } = {},
      executor: Kysely<DB> = db,
    ): Promise<ResourceRow | undefined> => {
      let query = executor.selectFrom('learning_resources').selectAll().where('id', '=', id);
      if (filter.sessionId !== undefined) query = query.where('session_id', '=', filter.sessionId);
      if (filter.status !== undefined) query = query.where('status', '=', filter.status);
      return query.executeTakeFirst();
    },

    /** `also` runs in the insert's transaction with the new row (its audit event). */
    insert: async (
      values: Insertable<LearningResourceTable>,
      also?: (trx: Kysely<DB>, row: ResourceRow) => Promise<void>,
    ): Promise<ResourceRow> =>
      db.transaction().execute(async (trx) => {
        const row = await trx.insertInto('learning_resources').values(values).returningAll().executeTakeFirstOrThrow();
        await also?.(trx, row);
        return row;
      }),
  };
}

export type ResourceRepository = ReturnType<typeof createResourceRepository>;
