import type { Static } from 'typebox';
import type { User, UserCreate, UserPatch } from './schemas.ts';

const user: Static<typeof User> = {
  id: 4,
  name: 'Daniel Okafor',
  email: 'daniel.okafor@northwind-academy.example',
  job_title: 'Course coordinator',
  status: 'active',
  roles: ['coordinator'],
  permissions: ['courses.approve'],
  effective_permissions: ['catalogue.manage', 'courses.approve', 'documents.manage', 'reports.manage'],
  invited_at: '2026-02-02T09:30:00.000Z',
  activated_at: '2026-02-03T08:12:44.120Z',
  suspended_at: null,
  archived_at: null,
  created_at: '2026-02-02T09:30:00.000Z',
  updated_at: '2026-02-03T08:12:44.120Z',
};

const userCreate: Static<typeof UserCreate> = {
  name: 'Daniel Okafor',
  email: 'daniel.okafor@northwind-academy.example',
  job_title: 'Course coordinator',
};

const userPatch: Static<typeof UserPatch> = { job_title: 'Senior course coordinator' };

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples): the shape the API really sends, from the demo academy (Northwind Training
 * Academy, GBP, Europe/London). Each is typed as its schema, so one that no longer fits fails the typecheck.
 */
export const examples = {
  User: user,
  UserCreate: userCreate,
  UserPatch: userPatch,
};
