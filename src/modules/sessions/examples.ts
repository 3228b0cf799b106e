import type { Static } from 'typebox';
import type { Session } from './schemas.ts';

const session: Static<typeof Session> = {
  id: 3,
  course_id: 3,
  course: 'project-management-fundamentals',
  name: 'Autumn cohort',
  workflow_state: 'open_for_registration',
  max_participants: 24,
  waitlist_enabled: true,
  registration_opens_at: '2026-09-01T08:00:00.000Z',
  registration_closes_at: '2026-12-04T17:00:00.000Z',
  registration_status: 'open',
  registration_open: true,
  starts_on: '2026-12-07',
  ends_on: '2026-12-09',
  instructor_name: 'Priya Natarajan',
  confirmed_count: 21,
  waitlisted_count: 0,
  available_seats: 3,
  capacity_status: 'available',
  completion_rate: null,
  created_at: '2026-08-14T10:00:00.000Z',
  updated_at: '2026-11-20T16:41:09.207Z',
};

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples): the shape the API really sends, from the demo academy (Northwind Training
 * Academy, GBP, Europe/London). Each is typed as its schema, so one that no longer fits fails the typecheck.
 */
export const examples = {
  Session: session,
};
