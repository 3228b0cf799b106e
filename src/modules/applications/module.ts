import type { AcademyModule } from '../../platform/module.ts';
import { adminApplicationCommands } from './admin.ts';

/** Course applications: created one by one or imported from CSV by the administration; seen through students. */
export const applicationsModule = {
  name: 'applications',
  admin: adminApplicationCommands,
} satisfies AcademyModule;
