import { systemContext } from '../../platform/context.ts';
import type { AcademyModule } from '../../platform/module.ts';
import { adminDocumentCommands } from './admin.ts';
import { documentRoutes } from './routes.ts';
import { documentServiceFor } from './service.ts';

/** Documents: files uploaded in versions, checked by a job, downloaded in ranges, archived and deleted softly. */
export const documentsModule = {
  name: 'documents',
  routes:
    ({ platform }) =>
    async (app) => {
      await app.register(documentRoutes, { documents: documentServiceFor(platform), maxPageSize: platform.config.maxPageSize });
    },
  // ACADEMY_DOCUMENT_TYPES_FILE: read and checked once per process (documentServiceFor keeps it).
  checkConfig: (platform) => void documentServiceFor(platform),
  jobs: ({ platform }) => ({
    'documents.process': {
      async handler(payload) {
        await documentServiceFor(platform).process(systemContext(platform), payload.documentId);
      },
    },
  }),
  admin: adminDocumentCommands,
  search: [
    {
      name: 'documents',
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
    },
  ],
} satisfies AcademyModule;

declare module '../../platform/jobs/names.ts' {
  interface JobPayloads {
    /** Checks a stored document's file against what was received and makes it available. */
    'documents.process': { documentId: number };
  }
}
