import type { Insertable, Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { type ListRequest, listPage, type Page } from '../../db/list.ts';
import { forUpdate } from '../../db/locks.ts';
import type { DB, DocumentTable } from '../../db/schema.ts';
import type { DocumentSort, DocumentStatus } from './schemas.ts';
import type { DocumentType } from './types.ts';

const COLUMNS = [
  'documents.id',
  'documents.type',
  'documents.status',
  'documents.title',
  'documents.filename',
  'documents.media_type',
  'documents.size',
  'documents.sha256',
  'documents.storage_key',
  'documents.student_id',
  'documents.supersedes_id',
  'documents.failure_reason',
  'documents.available_at',
  'documents.archived_at',
  'documents.deleted_at',
  'documents.created_at',
  'documents.updated_at',
] as const;

export interface DocumentRow {
  id: number;
  type: DocumentType;
  status: DocumentStatus;
  title: string | null;
  filename: string;
  media_type: string;
  size: number;
  sha256: string;
  storage_key: string;
  student_id: number | null;
  supersedes_id: number | null;
  superseded_by_id: number | null;
  failure_reason: string | null;
  available_at: string | null;
  archived_at: string | null;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface DocumentFilter {
  type?: DocumentType | undefined;
  status?: DocumentStatus | undefined;
  studentId?: number | undefined;
}

function select(db: Kysely<DB>) {
  return db
    .selectFrom('documents')
    .select(COLUMNS)
    .select((eb) =>
      eb
        .selectFrom('documents as newer')
        .select('newer.id')
        .whereRef('newer.supersedes_id', '=', 'documents.id')
        .orderBy('newer.id', 'desc')
        .limit(1)
        .as('superseded_by_id'),
    );
}

function decode(row: Omit<DocumentRow, 'size'> & { size: number | string; superseded_by_id: number | null }): DocumentRow {
  return { ...row, size: Number(row.size) } as DocumentRow;
}

export function createDocumentRepository(db: Kysely<DB>) {
  return {
    list: async (filter: DocumentFilter, list: ListRequest<DocumentSort>): Promise<Page<DocumentRow>> => {
      let query = select(db);
      if (filter.type !== undefined) query = query.where('documents.type', '=', filter.type);
      if (filter.status !== undefined) query = query.where('documents.status', '=', filter.status);
      if (filter.studentId !== undefined) query = query.where('documents.student_id', '=', filter.studentId);
      let count = db.selectFrom('documents');
      if (filter.type !== undefined) count = count.where('documents.type', '=', filter.type);
      if (filter.status !== undefined) count = count.where('documents.status', '=', filter.status);
      if (filter.studentId !== undefined) count = count.where('documents.student_id', '=', filter.studentId);
      const page = await listPage(
        db,
        query,
        list,
        {
          sort: {
            id: 'documents.id',
            created_at: 'documents.created_at',
            updated_at: 'documents.updated_at',
            title: 'documents.title',
            size: 'documents.size',
          },
          id: 'documents.id',
          updatedAt: 'documents.updated_at',
        },
        { count },
      );
      return { items: page.items.map((row) => decode(row as never)), total: page.total };
    },

    /** Locks a document's row until the transaction ends, so that what is read next stays current. */
    lock: async (trx: Kysely<DB>, dialect: Dialect, id: number): Promise<void> => {
      await forUpdate(trx.selectFrom('documents').select('id').where('id', '=', id), dialect).execute();
    },

    /**
     * Which of `keys` a document row names, whatever its status (a deleted document keeps its file):
     * such a file must never be removed as a leftover.
     */
    namedKeys: async (keys: readonly string[]): Promise<Set<string>> =>
      new Set(
        keys.length === 0
          ? []
          : (
              await db
                .selectFrom('documents')
                .select('storage_key')
                .where('storage_key', 'in', [...keys])
                .execute()
            ).map((row) => row.storage_key),
      ),

    find: async (executor: Kysely<DB>, id: number): Promise<DocumentRow | undefined> => {
      const row = await select(executor).where('documents.id', '=', id).executeTakeFirst();
      return row && decode(row as never);
    },

    insert: async (trx: Kysely<DB>, values: Insertable<DocumentTable>): Promise<number> => {
      const row = await trx.insertInto('documents').values(values).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },

    update: async (trx: Kysely<DB>, id: number, values: Partial<Insertable<DocumentTable>>): Promise<boolean> => {
      const result = await trx.updateTable('documents').set(values).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Records why a document still `stored` is not available; false when it is no longer stored. */
    noteFailure: async (trx: Kysely<DB>, id: number, reason: string, now: string): Promise<boolean> => {
      const result = await trx
        .updateTable('documents')
        .set({ failure_reason: reason, updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'stored')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Bytes and files per type and status (`academy admin storage usage`). */
    usage: async () =>
      db
        .selectFrom('documents')
        .select(['type', 'status'])
        .select((eb) => [eb.fn.countAll<number | string>().as('files'), eb.fn.sum<number | string>('size').as('bytes')])
        .groupBy(['type', 'status'])
        .orderBy('type')
        .orderBy('status')
        .execute(),
  };
}

export type DocumentRepository = ReturnType<typeof createDocumentRepository>;
