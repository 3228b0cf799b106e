import type { Static } from 'typebox';
import type { Enrolment } from './schemas.ts';

const enrolment: Static<typeof Enrolment> = {
  id: 27,
  student_id: 30,
  session_id: 3,
  course_id: 3,
  status: 'confirmed',
  waitlist_position: null,
  confirmed_at: '2026-09-03T10:15:02.664Z',
  cancelled_at: null,
  cancellation_reason: null,
  completion_outcome: null,
  completion_notes: null,
  completion_recorded_at: null,
  created_at: '2026-09-03T10:15:02.664Z',
  updated_at: '2026-09-03T10:15:02.664Z',
};

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples): the shape the API really sends, from the demo academy (Northwind Training
 * Academy, GBP, Europe/London). Each is typed as its schema, so one that no longer fits fails the typecheck.
 */
export const examples = {
  Enrolment: enrolment,
};
