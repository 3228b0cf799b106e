import type { Static } from 'typebox';
import type { SearchGroupResult, SearchHit, SearchResults } from './schemas.ts';

/** A hit carries its type's own fields after the common four. */
type Hit = Static<typeof SearchHit> & Record<string, unknown>;

const courseHit: Hit = {
  id: 3,
  type: 'course',
  title: 'Project Management Fundamentals',
  path: '/api/v1/courses/project-management-fundamentals',
  slug: 'project-management-fundamentals',
  code: 'PM-101',
  status: 'published',
};

const enrolmentHit: Hit = {
  id: 27,
  type: 'enrolment',
  title: 'Aoife Nowak, Project Management Fundamentals',
  path: '/api/v1/enrolments/27',
  student_id: 30,
  course: 'project-management-fundamentals',
  session_id: 3,
  status: 'confirmed',
};

const emptyGroup: Static<typeof SearchGroupResult> = { total: 0, total_capped: false, items: [], restricted: false };

/** A group the token may not read (here, without `users:read` and `identity-notifications:read`). */
const restrictedGroup: Static<typeof SearchGroupResult> = { total: 0, total_capped: false, items: [], restricted: true };

const courseGroup: Static<typeof SearchGroupResult> = { total: 1, total_capped: false, items: [courseHit], restricted: false };

const search: Static<typeof SearchResults> = {
  assessments: emptyGroup,
  certificates: emptyGroup,
  courses: courseGroup,
  documents: emptyGroup,
  enrolments: { total: 1, total_capped: false, items: [enrolmentHit], restricted: false },
  meetings: emptyGroup,
  notifications: restrictedGroup,
  reports: emptyGroup,
  resources: emptyGroup,
  sessions: emptyGroup,
  students: emptyGroup,
  users: restrictedGroup,
  workflows: emptyGroup,
};

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples): the shape the API really sends, from the demo academy (Northwind Training
 * Academy, GBP, Europe/London). Each is typed as its schema, so one that no longer fits fails the typecheck.
 */
export const examples = {
  SearchGroupResult: courseGroup,
  SearchHit: courseHit,
  SearchResults: search,
};
