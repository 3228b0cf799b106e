import type { Static } from 'typebox';
import type { Assessment } from './schemas.ts';

const assessment: Static<typeof Assessment> = {
  id: 7,
  session_id: 3,
  title: 'Final assessment',
  kind: 'exam',
  due_at: '2026-12-09T15:00:00.000Z',
  max_score: 100,
  created_at: '2026-08-14T12:00:00.000Z',
  updated_at: '2026-08-14T12:00:00.000Z',
};

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples): the shape the API really sends, from the demo academy (Northwind Training
 * Academy, GBP, Europe/London). Each is typed as its schema, so one that no longer fits fails the typecheck.
 */
export const examples = {
  Assessment: assessment,
};
