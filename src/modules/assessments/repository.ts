import type { Insertable, Kysely, Selectable } from 'kysely';
import { type ListRequest, listPage, type Page } from '../../db/list.ts';
import type { AssessmentTable, DB } from '../../db/schema.ts';
import type { AssessmentSort } from './schemas.ts';

export type AssessmentRow = Selectable<AssessmentTable>;

export function createAssessmentRepository(db: Kysely<DB>) {
  return {
    list: async (sessionId: number | undefined, list: ListRequest<AssessmentSort>): Promise<Page<AssessmentRow>> => {
      let query = db.selectFrom('assessments').selectAll();
      if (sessionId !== undefined) query = query.where('session_id', '=', sessionId);
      return listPage(db, query, list, { sort: { id: 'id', due_at: 'due_at', title: 'title' } });
    },

    find: async (sessionId: number, id: number): Promise<AssessmentRow | undefined> =>
      db.selectFrom('assessments').selectAll().where('id', '=', id).where('session_id', '=', sessionId).executeTakeFirst(),

    /** `also` runs in the insert's transaction with the new row (its audit event). */
    insert: async (
      values: Insertable<AssessmentTable>,
      also?: (trx: Kysely<DB>, row: AssessmentRow) => Promise<void>,
    ): Promise<AssessmentRow> =>
      db.transaction().execute(async (trx) => {
        const row = await trx.insertInto('assessments').values(values).returningAll().executeTakeFirstOrThrow();
        await also?.(trx, row);
        return row;
      }),
  };
}

export type AssessmentRepository = ReturnType<typeof createAssessmentRepository>;
