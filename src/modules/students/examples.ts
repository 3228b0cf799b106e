import type { Static } from 'typebox';
import type { Student } from './schemas.ts';

const student: Static<typeof Student> = {
  id: 30,
  name: 'Aoife Nowak',
  email: 'aoife.nowak@mail.example',
  email_verified: true,
  courses: ['project-management-fundamentals'],
  created_at: '2026-04-11T08:23:51.092Z',
  updated_at: '2026-09-03T10:15:02.664Z',
};

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples): the shape the API really sends, from the demo academy (Northwind Training
 * Academy, GBP, Europe/London). Each is typed as its schema, so one that no longer fits fails the typecheck.
 */
export const examples = {
  Student: student,
};
