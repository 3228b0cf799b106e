import type { Static } from 'typebox';
import type { Notification } from './schemas.ts';

const notification: Static<typeof Notification> = {
  id: 15,
  type: 'invitation',
  status: 'sent',
  user_id: 4,
  recipient: 'daniel.okafor@northwind-academy.example',
  subject: 'You are invited to Northwind Training Academy',
  attempts: 1,
  max_attempts: 5,
  last_error: null,
  sent_at: '2026-02-02T09:30:02.512Z',
  failed_at: null,
  created_at: '2026-02-02T09:30:00.000Z',
  updated_at: '2026-02-02T09:30:02.512Z',
};

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples): the shape the API really sends, from the demo academy (Northwind Training
 * Academy, GBP, Europe/London). Each is typed as its schema, so one that no longer fits fails the typecheck.
 */
export const examples = {
  Notification: notification,
};
