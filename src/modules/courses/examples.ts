import type { Static } from 'typebox';
import type { Course } from './schemas.ts';

const course: Static<typeof Course> = {
  id: 3,
  slug: 'project-management-fundamentals',
  code: 'PM-101',
  title: 'Project Management Fundamentals',
  description: 'Plan, run and close projects: scope, schedule, risk and stakeholder management, with a PRINCE2-style case study.',
  price: '450.00',
  currency: 'GBP',
  language: 'en',
  status: 'published',
  published_at: '2026-03-02T10:00:00.000Z',
  archived_at: null,
  created_at: '2026-02-20T10:00:00.000Z',
  updated_at: '2026-03-02T10:00:00.000Z',
};

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples): the shape the API really sends, from the demo academy (Northwind Training
 * Academy, GBP, Europe/London). Each is typed as its schema, so one that no longer fits fails the typecheck.
 */
export const examples = {
  Course: course,
};
