import type { SearchGroup } from '../manifest.ts';

/** The `documents` group of GET /search: documents by title or file name, newest first; a deleted one never appears. */
export const documentSearch: SearchGroup = {
  name: 'documents',
  scopes: ['documents:read'],
  columns: ['title', 'filename', 'type', 'status'],
  order: 'id',
  direction: 'desc',
  matches: ({ db, match }) =>
    db
      .selectFrom('documents')
      .select(['documents.id', 'documents.title', 'documents.filename', 'documents.type', 'documents.status'])
      .where('documents.status', '<>', 'deleted')
      .where(match('documents')),
  hit: (row: { id: number; title: string | null; filename: string; type: string; status: string }) => ({
    id: row.id,
    type: 'document',
    title: row.title ?? row.filename,
    path: `/api/v1/documents/${row.id}`,
    filename: row.filename,
    document_type: row.type,
    status: row.status,
  }),
};
