import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { type ListRequest, listPage, type Page } from '../../db/list.ts';
import type { AssessmentTable, DB } from '../../db/schema.ts';
import { type SearchRows, searchRows, textMatch } from '../../db/search.ts';
import type { AssessmentSort } from './schemas.ts';

export type AssessmentRow = Selectable<AssessmentTable>;

export function createAssessmentRepository(db: Kysely<DB>) {
  return {
    list: async (sessionId: number | undefined, list: ListRequest<AssessmentSort>): Promise<Page<AssessmentRow>> => {
      let query = db.selectFrom('assessments').selectAll();
      if (sessionId !== undefined) query = query.where('session_id', '=', sessionId);
      return listPage(query, list, { sort: { id: 'id', due_at: 'due_at', title: 'title' } });
    },

    find: async (sessionId: number, id: number): Promise<AssessmentRow | undefined> =>
      db.selectFrom('assessments').selectAll().where('id', '=', id).where('session_id', '=', sessionId).executeTakeFirst(),

    insert: async (values: Insertable<AssessmentTable>): Promise<AssessmentRow> =>
      db.insertInto('assessments').values(values).returningAll().executeTakeFirstOrThrow(),
  };
}

export type AssessmentRepository = ReturnType<typeof createAssessmentRepository>;

/** Assessments whose title contains `text` (GET /search), by title. */
export function searchAssessments(
  db: Kysely<DB>,
  dialect: Dialect,
  text: string,
  limit: number,
): Promise<SearchRows<{ id: number; title: string; kind: string; session_id: number; course: string }>> {
  const query = db
    .selectFrom('assessments')
    .innerJoin('training_sessions', 'training_sessions.id', 'assessments.session_id')
    .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
    .select(['assessments.id', 'assessments.title', 'assessments.kind', 'assessments.session_id', 'courses.slug as course'])
    .where(textMatch(dialect, 'assessments', text));
  return searchRows(db, query, { limit, order: 'title' });
}
