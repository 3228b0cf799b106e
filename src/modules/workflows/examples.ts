import type { Static } from 'typebox';
import type { WorkflowDecision, WorkflowInstance, WorkflowUser } from './schemas.ts';

const workflowUser: Static<typeof WorkflowUser> = { id: 4, name: 'Daniel Okafor' };

const decision: Static<typeof WorkflowDecision> = {
  from_state: 'pending',
  to_state: 'in_review',
  decided_by: workflowUser,
  comment: 'Syllabus and pricing checked; over to the review board.',
  decided_at: '2026-02-12T14:05:31.000Z',
};

const workflow: Static<typeof WorkflowInstance> = {
  id: 3,
  workflow: 'course_approval',
  state: 'in_review',
  subject_type: 'course',
  subject_id: 3,
  assignee: workflowUser,
  approval_policy: { required_permission: 'courses.approve' },
  allowed_transitions: ['approved', 'rejected'],
  decisions: [decision],
  created_at: '2026-02-10T10:00:00.000Z',
  updated_at: '2026-02-12T14:05:31.000Z',
};

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples): the shape the API really sends, from the demo academy (Northwind Training
 * Academy, GBP, Europe/London). Each is typed as its schema, so one that no longer fits fails the typecheck.
 */
export const examples = {
  WorkflowDecision: decision,
  WorkflowInstance: workflow,
  WorkflowUser: workflowUser,
};
