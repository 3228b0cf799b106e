import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import { type ListRequest, listPage, type Page } from '../../db/list.ts';
import type { DB, ReportTable } from '../../db/schema.ts';
import type { ReportSort, ReportStatus } from './schemas.ts';
import type { ReportType } from './types.ts';

export type ReportRow = Selectable<ReportTable>;

export interface ReportFilter {
  type?: ReportType | undefined;
  status?: ReportStatus | undefined;
}

/** The `attempts` a generate move sets: one more than the row holds, counted by the move's own UPDATE. */
export const NEXT_ATTEMPT = sql<number>`attempts + 1`;

export function createReportRepository(db: Kysely<DB>) {
  return {
    findById: async (id: number, executor: Kysely<DB> = db): Promise<ReportRow | undefined> =>
      executor.selectFrom('reports').selectAll().where('id', '=', id).executeTakeFirst(),

    insert: async (trx: Kysely<DB>, values: Insertable<ReportTable>): Promise<number> => {
      const row = await trx.insertInto('reports').values(values).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },

    update: async (id: number, values: Updateable<ReportTable>): Promise<void> => {
      await db.updateTable('reports').set(values).where('id', '=', id).execute();
    },

    list: async (filter: ReportFilter, list: ListRequest<ReportSort>): Promise<Page<ReportRow>> => {
      let query = db.selectFrom('reports').selectAll();
      let count = db.selectFrom('reports');
      if (filter.type !== undefined) {
        query = query.where('type', '=', filter.type);
        count = count.where('type', '=', filter.type);
      }
      if (filter.status !== undefined) {
        query = query.where('status', '=', filter.status);
        count = count.where('status', '=', filter.status);
      }
      return listPage(db, query, list, { sort: { id: 'id', created_at: 'created_at', updated_at: 'updated_at' } }, { count });
    },

    /**
     * Which of `keys` a report still needs: an expired report's file is removed when it expires, a
     * failed one's is never downloaded, and a retried generation writes a new file, so their rows'
     * keys do not keep a file.
     */
    namedKeys: async (keys: readonly string[]): Promise<Set<string>> =>
      new Set(
        keys.length === 0
          ? []
          : (
              await db
                .selectFrom('reports')
                .select('storage_key')
                .where('storage_key', 'in', [...keys])
                .where('status', 'not in', ['expired', 'failed'])
                .execute()
            ).map((row) => row.storage_key as string),
      ),

    /** Available reports whose expiry is `at` or earlier, by id. */
    dueToExpire: async (at: string): Promise<Pick<ReportRow, 'id' | 'storage_key' | 'size'>[]> =>
      db
        .selectFrom('reports')
        .select(['id', 'storage_key', 'size'])
        .where('status', '=', 'available')
        .where('expires_at', '<=', at)
        .orderBy('id')
        .execute(),

    /** The ids of unfinished reports (requested, generating or generated) not updated since `before`. */
    unfinishedIdleSince: async (before: string): Promise<number[]> =>
      (
        await db
          .selectFrom('reports')
          .select('id')
          .where('status', 'in', ['requested', 'generating', 'generated'])
          .where('updated_at', '<', before)
          .execute()
      ).map((report) => report.id),
  };
}

export type ReportRepository = ReturnType<typeof createReportRepository>;
