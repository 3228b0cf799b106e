import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { type ListRequest, listPage, type Page } from '../../db/list.ts';
import type { DB, LearningResourceTable } from '../../db/schema.ts';
import { type SearchRows, searchRows, textMatch } from '../../db/search.ts';
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
      return listPage(query, list, { sort: { id: 'id', title: 'title', published_at: 'published_at' } });
    },

    /** A resource of a session; only a published one unless `status` is omitted. */
    find: async (id: number, filter: { sessionId?: number; status?: ResourceStatus } = {}): Promise<ResourceRow | undefined> => {
      let query = db.selectFrom('learning_resources').selectAll().where('id', '=', id);
      if (filter.sessionId !== undefined) query = query.where('session_id', '=', filter.sessionId);
      if (filter.status !== undefined) query = query.where('status', '=', filter.status);
      return query.executeTakeFirst();
    },

    insert: async (values: Insertable<LearningResourceTable>): Promise<ResourceRow> =>
      db.insertInto('learning_resources').values(values).returningAll().executeTakeFirstOrThrow(),
  };
}

export type ResourceRepository = ReturnType<typeof createResourceRepository>;

/** Published learning resources whose title contains `text` (GET /search), by title; drafts never. */
export function searchResources(
  db: Kysely<DB>,
  dialect: Dialect,
  text: string,
  limit: number,
): Promise<SearchRows<{ id: number; title: string; type: string; session_id: number; course: string }>> {
  const query = db
    .selectFrom('learning_resources')
    .innerJoin('training_sessions', 'training_sessions.id', 'learning_resources.session_id')
    .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
    .select([
      'learning_resources.id',
      'learning_resources.title',
      'learning_resources.type',
      'learning_resources.session_id',
      'courses.slug as course',
    ])
    .where('learning_resources.status', '=', 'published')
    .where(textMatch(dialect, 'learning_resources', text));
  return searchRows(db, query, { limit, order: 'title' });
}
