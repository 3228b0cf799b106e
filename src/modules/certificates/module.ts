import type { AcademyModule } from '../../platform/module.ts';
import { adminCertificateCommands } from './admin.ts';
import { examples } from './examples.ts';
import { certificateRoutes } from './routes.ts';
import { certificateSearch } from './search.ts';
import { certificateServiceFor } from './service.ts';

/** Certificates: read by authorised clients, verified publicly by token, issued and revoked by the administration. */
export const certificatesModule = {
  name: 'certificates',
  routes:
    ({ platform }) =>
    async (app) => {
      await app.register(certificateRoutes, { certificates: certificateServiceFor(platform), maxPageSize: platform.config.maxPageSize });
    },
  admin: adminCertificateCommands,
  search: [certificateSearch],
  examples,
} satisfies AcademyModule;
