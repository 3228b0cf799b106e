import type { Static } from 'typebox';
import type { Meeting } from './schemas.ts';

const meeting: Static<typeof Meeting> = {
  id: 9,
  session_id: 3,
  held_on: '2026-12-07',
  starts_at: '2026-12-07T09:00:00.000Z',
  ends_at: '2026-12-07T17:00:00.000Z',
  location: 'Room 2.14, 12 Learning Lane, London EC1A 1AA',
  status: 'Scheduled',
  effective_status: 'scheduled',
  cancelled_at: null,
  created_at: '2026-08-14T12:00:00.000Z',
  updated_at: '2026-08-14T12:00:00.000Z',
};

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples): the shape the API really sends, from the demo academy (Northwind Training
 * Academy, GBP, Europe/London). Each is typed as its schema, so one that no longer fits fails the typecheck.
 */
export const examples = {
  Meeting: meeting,
};
