import type { Static } from 'typebox';
import type { LearningResource } from './schemas.ts';

const resource: Static<typeof LearningResource> = {
  id: 5,
  session_id: 3,
  title: 'Course handbook',
  type: 'file',
  url: 'https://northwind-academy.example/handbooks/pm-101.pdf',
  body: null,
  status: 'published',
  published_at: '2026-08-14T12:00:00.000Z',
  created_at: '2026-08-14T12:00:00.000Z',
  updated_at: '2026-08-14T12:00:00.000Z',
};

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples): the shape the API really sends, from the demo academy (Northwind Training
 * Academy, GBP, Europe/London). Each is typed as its schema, so one that no longer fits fails the typecheck.
 */
export const examples = {
  LearningResource: resource,
};
