import type { AcademyModule } from '../manifest.ts';
import { eventJobs } from './dispatch.ts';

/** Fans outbox events out to webhook endpoints and integrations (`events.dispatch`). */
export const eventsModule = {
  name: 'events',
  jobs: ({ platform }) => eventJobs(platform),
} satisfies AcademyModule;
