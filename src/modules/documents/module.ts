import { systemContext } from '../../platform/context.ts';
import type { AcademyModule } from '../../platform/module.ts';
import { adminDocumentCommands } from './admin.ts';
import { createDocumentRepository } from './repository.ts';
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
      async search(platform, { q, limit }) {
        const { rows, total } = await createDocumentRepository(platform.database.db).search(platform.database.dialect, q, limit);
        return {
          total,
          items: rows.map((d) => ({
            id: d.id,
            type: 'document',
            title: d.title ?? d.filename,
            path: `/api/v1/documents/${d.id}`,
            filename: d.filename,
            document_type: d.type,
            status: d.status,
          })),
        };
      },
    },
  ],
} satisfies AcademyModule;

declare module '../../platform/jobs/names.ts' {
  interface JobPayloads {
    /** Checks a stored document's file against what was received and makes it available. */
    'documents.process': { documentId: number };
  }
}
