import { systemContext } from '../../platform/context.ts';
import type { AcademyModule } from '../../platform/module.ts';
import { adminDocumentCommands } from './admin.ts';
import { examples } from './examples.ts';
import { createDocumentRepository } from './repository.ts';
import { documentRoutes } from './routes.ts';
import { documentSearch } from './search.ts';
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
      // Attempts exhausted: the document says why it is not available, instead of staying stored without a word.
      async onExhausted(trx, payload, error) {
        await documentServiceFor(platform).checkAbandoned(trx, systemContext(platform), payload.documentId, error);
      },
    },
  }),
  admin: adminDocumentCommands,
  search: [documentSearch],
  files: { area: 'documents', referenced: (db, keys) => createDocumentRepository(db).namedKeys(keys) },
  examples,
} satisfies AcademyModule;

declare module '../../platform/jobs/names.ts' {
  interface JobPayloads {
    /** Checks a stored document's file against what was received and makes it available. */
    'documents.process': { documentId: number };
  }
}
