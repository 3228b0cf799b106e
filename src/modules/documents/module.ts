import { systemContext } from '../../platform/context.ts';
import type { AcademyModule } from '../manifest.ts';
import { adminDocumentCommands } from './admin.ts';
import { examples } from './examples.ts';
import { createDocumentRepository } from './repository.ts';
import { documentRoutes } from './routes.ts';
import { documentSearch } from './search.ts';
import { createDocumentService, type DocumentService } from './service.ts';
import { loadDocumentTypes } from './types.ts';

/** Documents: files uploaded in versions, checked by a job, downloaded in ranges, archived and deleted softly. */
export const documentsModule = {
  name: 'documents',
  services: {
    // ACADEMY_DOCUMENT_TYPES_FILE is read and checked as the service is built: once per process.
    documents: ({ platform }) =>
      createDocumentService({
        db: platform.database.db,
        dialect: platform.database.dialect,
        documents: createDocumentRepository(platform.database.db),
        storage: platform.storage,
        outbox: platform.outbox,
        queue: platform.queue,
        rules: loadDocumentTypes(platform.config.documentTypesFile),
      }),
  },
  routes:
    ({ platform, services }) =>
    async (app) => {
      await app.register(documentRoutes, { documents: services.documents, maxPageSize: platform.config.maxPageSize });
    },
  checkConfig: ({ services }) => void services.documents,
  jobs: ({ platform, services }) => ({
    'documents.process': {
      async handler(payload) {
        await services.documents.process(systemContext(platform), payload.documentId);
      },
      // Attempts exhausted: the document says why it is not available, instead of staying stored without a word.
      async onExhausted(trx, payload, error) {
        await services.documents.checkAbandoned(trx, systemContext(platform), payload.documentId, error);
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

declare module '../../platform/services.ts' {
  interface Services {
    documents: DocumentService;
  }
}
