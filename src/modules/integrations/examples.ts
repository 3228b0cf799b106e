import type { Static } from 'typebox';
import type { EventEnvelope, IntegrationMessage } from './schemas.ts';

const envelope: Static<typeof EventEnvelope> = {
  id: 'evt_Qm9a3kT2xVbL8pRw1cYz',
  type: 'enrollment.created',
  version: '1',
  occurred_at: '2026-09-03T10:15:02.664Z',
  payload: { enrolment_id: 27, student_id: 30, session_id: 3, course_id: 3, status: 'confirmed', waitlist_position: null },
};

const message: Static<typeof IntegrationMessage> = {
  id: 41,
  integration_key: 'crm',
  event_id: envelope.id,
  event_type: envelope.type,
  status: 'delivered',
  attempts: 1,
  max_attempts: 8,
  last_status_code: 200,
  last_error: null,
  payload: envelope,
  delivered_at: '2026-09-03T10:15:03.118Z',
  failed_at: null,
  created_at: '2026-09-03T10:15:02.701Z',
  updated_at: '2026-09-03T10:15:03.118Z',
};

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples): the shape the API really sends, from the demo academy (Northwind Training
 * Academy, GBP, Europe/London). Each is typed as its schema, so one that no longer fits fails the typecheck.
 */
export const examples = {
  EventEnvelope: envelope,
  IntegrationMessage: message,
};
