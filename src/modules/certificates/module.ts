import type { AcademyModule } from '../manifest.ts';
import { adminCertificateCommands } from './admin.ts';
import { examples } from './examples.ts';
import { createCertificateRepository } from './repository.ts';
import { certificateRoutes } from './routes.ts';
import { certificateSearch } from './search.ts';
import { type CertificateService, createCertificateService } from './service.ts';

/** Certificates: read by authorised clients, verified publicly by token, issued and revoked by the administration. */
export const certificatesModule = {
  name: 'certificates',
  services: {
    certificates: ({ platform }) =>
      createCertificateService({
        db: platform.database.db,
        certificates: createCertificateRepository(platform.database.db, platform.database.dialect),
        outbox: platform.outbox,
      }),
  },
  routes:
    ({ platform, services }) =>
    async (app) => {
      await app.register(certificateRoutes, { certificates: services.certificates, maxPageSize: platform.config.maxPageSize });
    },
  admin: adminCertificateCommands,
  search: [certificateSearch],
  examples,
} satisfies AcademyModule;

declare module '../../platform/services.ts' {
  interface Services {
    certificates: CertificateService;
  }
}
