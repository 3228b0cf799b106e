import type { Static } from 'typebox';
import type { Assessment } from '../modules/assessments/schemas.ts';
import type { Certificate, CertificateVerification } from '../modules/certificates/schemas.ts';
import type { Course } from '../modules/courses/schemas.ts';
import type { Document, DocumentPatch } from '../modules/documents/schemas.ts';
import type { Enrolment } from '../modules/enrolments/schemas.ts';
import type { HealthCheckResult, HealthReport } from '../modules/health/schemas.ts';
import type { EventEnvelope, IntegrationMessage } from '../modules/integrations/schemas.ts';
import type { Meeting } from '../modules/meetings/schemas.ts';
import type { Notification } from '../modules/notifications/schemas.ts';
import type { Address, Organization, OrganizationPatch } from '../modules/organization/schemas.ts';
import type { Report, ReportRequest } from '../modules/reports/schemas.ts';
import type { LearningResource } from '../modules/resources/schemas.ts';
import type { SearchGroupResult, SearchHit, SearchResults } from '../modules/search/schemas.ts';
import type { Session } from '../modules/sessions/schemas.ts';
import type { Student } from '../modules/students/schemas.ts';
import type { Task, TaskDetail, TaskRun } from '../modules/tasks/schemas.ts';
import type { User, UserCreate, UserPatch } from '../modules/users/schemas.ts';
import type { WorkflowDecision, WorkflowInstance, WorkflowUser } from '../modules/workflows/schemas.ts';

/**
 * One example per named schema of the OpenAPI document, in the shape the API really sends (taken from
 * the demo academy: Northwind Training Academy, GBP, Europe/London). Each is typed as its schema, so
 * an example that no longer fits fails the typecheck; the linters check them against the document too.
 * Operation examples are assembled from these (src/http/openapi-document.ts).
 */

const address: Static<typeof Address> = {
  line1: '12 Learning Lane',
  line2: null,
  city: 'London',
  region: null,
  postal_code: 'EC1A 1AA',
  country: 'GB',
};

const organization: Static<typeof Organization> = {
  name: 'Northwind Training Academy',
  legal_name: 'Northwind Training Academy Ltd',
  timezone: 'Europe/London',
  locale: 'en-GB',
  currency: 'GBP',
  contact_email: 'office@northwind-academy.example',
  phone: '+44 20 7946 0000',
  website: 'https://northwind-academy.example',
  address,
  created_at: '2026-01-05T09:00:00.000Z',
  updated_at: '2026-06-02T14:12:45.318Z',
};

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

const session: Static<typeof Session> = {
  id: 3,
  course_id: 3,
  course: 'project-management-fundamentals',
  name: 'Autumn cohort',
  workflow_state: 'open_for_registration',
  max_participants: 24,
  waitlist_enabled: true,
  registration_opens_at: '2026-09-01T08:00:00.000Z',
  registration_closes_at: '2026-12-04T17:00:00.000Z',
  registration_status: 'open',
  registration_open: true,
  starts_on: '2026-12-07',
  ends_on: '2026-12-09',
  instructor_name: 'Priya Natarajan',
  confirmed_count: 21,
  waitlisted_count: 0,
  available_seats: 3,
  capacity_status: 'available',
  completion_rate: null,
  created_at: '2026-08-14T10:00:00.000Z',
  updated_at: '2026-11-20T16:41:09.207Z',
};

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

const meeting: Static<typeof Meeting> = {
  id: 9,
  session_id: 3,
  held_on: '2026-12-07',
  starts_at: '2026-12-07T09:00:00.000Z',
  ends_at: '2026-12-07T17:00:00.000Z',
  location: 'Room 2.14, 12 Learning Lane, London EC1A 1AA',
  status: 'Scheduled',
  effective_status: 'scheduled',
  cancelled_at: null,
  created_at: '2026-08-14T12:00:00.000Z',
  updated_at: '2026-08-14T12:00:00.000Z',
};

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

const student: Static<typeof Student> = {
  id: 30,
  name: 'Aoife Nowak',
  email: 'aoife.nowak@mail.example',
  email_verified: true,
  courses: ['project-management-fundamentals'],
  created_at: '2026-04-11T08:23:51.092Z',
  updated_at: '2026-09-03T10:15:02.664Z',
};

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

const certificate: Static<typeof Certificate> = {
  id: 1,
  certificate_number: 'CERT-2026-000001',
  verification_token: '8aUnXa50TMDAOS4weY5qsOs5a3H653mU',
  status: 'valid',
  student_id: 24,
  course_id: 1,
  course: 'advanced-excel',
  session_id: 1,
  enrolment_id: 1,
  issued_at: '2026-05-11T09:00:00.000Z',
  revoked_at: null,
  revocation_reason: null,
  created_at: '2026-05-11T09:00:00.000Z',
  updated_at: '2026-05-11T09:00:00.000Z',
};

const verification: Static<typeof CertificateVerification> = {
  holder_name: 'Mia Dubois',
  course_title: 'Advanced Excel',
  issued_on: '2026-05-11',
  status: 'valid',
  revoked_at: null,
};

const document: Static<typeof Document> = {
  id: 12,
  type: 'employment_letter',
  status: 'available',
  title: 'Employment letter, Contoso Ltd',
  filename: 'employment-letter-contoso.pdf',
  media_type: 'application/pdf',
  size: 184320,
  sha256: '9f2c4e8a1b7d3f60c5e2a9b8d7c6f5e4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8',
  student_id: 30,
  supersedes_id: null,
  superseded_by_id: null,
  failure_reason: null,
  download_path: '/api/v1/documents/12/download',
  available_at: '2026-09-04T11:02:17.441Z',
  archived_at: null,
  deleted_at: null,
  created_at: '2026-09-04T11:02:16.903Z',
  updated_at: '2026-09-04T11:02:17.441Z',
};

const user: Static<typeof User> = {
  id: 4,
  name: 'Daniel Okafor',
  email: 'daniel.okafor@northwind-academy.example',
  job_title: 'Course coordinator',
  status: 'active',
  permissions: ['courses.approve'],
  invited_at: '2026-02-02T09:30:00.000Z',
  activated_at: '2026-02-03T08:12:44.120Z',
  suspended_at: null,
  archived_at: null,
  created_at: '2026-02-02T09:30:00.000Z',
  updated_at: '2026-02-03T08:12:44.120Z',
};

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

const taskRun: Static<typeof TaskRun> = {
  id: 118,
  task_id: 2,
  trigger: 'schedule',
  status: 'succeeded',
  scheduled_for: '2026-11-24T03:00:00.000Z',
  queued_at: '2026-11-24T03:00:00.012Z',
  started_at: '2026-11-24T03:00:00.034Z',
  finished_at: '2026-11-24T03:00:00.091Z',
  duration_ms: 57,
  error: null,
};

const task: Static<typeof Task> = {
  id: 2,
  task_type: 'health.run_checks',
  name: 'Run health checks',
  description: 'Runs every enabled health check and sends an alert when one fails.',
  cron: '*/5 * * * *',
  timezone: 'Europe/London',
  enabled: true,
  next_run_at: '2026-11-24T03:05:00.000Z',
  last_run_at: '2026-11-24T03:00:00.034Z',
  last_outcome: 'succeeded',
  last_error: null,
  last_duration_ms: 57,
  created_at: '2026-01-05T09:00:00.000Z',
  updated_at: '2026-11-24T03:00:00.091Z',
};

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

const report: Static<typeof Report> = {
  id: 6,
  type: 'enrolments',
  format: 'csv',
  status: 'available',
  parameters: { from: '2026-11-01', to: '2026-11-23' },
  progress: 100,
  row_count: 212,
  size: 28415,
  sha256: '3b1f7c0e9d2a4b6c8e0f1a3c5e7092b4d6f8a0c2e4f6a8b0d2c4e6f8a0b2c4d6',
  failure_reason: null,
  download_path: '/api/v1/reports/6/download',
  generated_at: '2026-11-23T16:20:04.228Z',
  available_at: '2026-11-23T16:20:04.377Z',
  expires_at: '2026-11-30T16:20:04.377Z',
  expired_at: null,
  failed_at: null,
  created_at: '2026-11-23T16:20:01.950Z',
  updated_at: '2026-11-23T16:20:04.377Z',
};

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

const check: Static<typeof HealthCheckResult> = {
  name: 'database',
  status: 'pass',
  component_type: 'datastore',
  observed_value: 1.2,
  observed_unit: 'ms',
  output: null,
  time: '2026-11-24T03:00:00.052Z',
};

const health: Static<typeof HealthReport> = {
  status: 'pass',
  checks: [
    check,
    {
      name: 'queue',
      status: 'pass',
      component_type: 'component',
      observed_value: 0,
      observed_unit: 's',
      output: 'No job is waiting.',
      time: '2026-11-24T03:00:00.052Z',
    },
  ],
};

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

const emptyGroup: Static<typeof SearchGroupResult> = { total: 0, items: [], restricted: false };
/** A group the token may not read (here, without `users:read` and `identity-notifications:read`). */
const restrictedGroup: Static<typeof SearchGroupResult> = { total: 0, items: [], restricted: true };
const courseGroup: Static<typeof SearchGroupResult> = { total: 1, items: [courseHit], restricted: false };

const search: Static<typeof SearchResults> = {
  assessments: emptyGroup,
  certificates: emptyGroup,
  courses: courseGroup,
  documents: emptyGroup,
  enrolments: { total: 1, items: [enrolmentHit], restricted: false },
  meetings: emptyGroup,
  notifications: restrictedGroup,
  reports: emptyGroup,
  resources: emptyGroup,
  sessions: emptyGroup,
  students: emptyGroup,
  users: restrictedGroup,
  workflows: emptyGroup,
};

const userCreate: Static<typeof UserCreate> = {
  name: 'Daniel Okafor',
  email: 'daniel.okafor@northwind-academy.example',
  job_title: 'Course coordinator',
};
const userPatch: Static<typeof UserPatch> = { job_title: 'Senior course coordinator' };
const documentPatch: Static<typeof DocumentPatch> = { title: 'Employment letter, Contoso Ltd (signed)' };
const organizationPatch: Static<typeof OrganizationPatch> = { phone: '+44 20 7946 0001', website: 'https://northwind-academy.example' };
const reportRequest: Static<typeof ReportRequest> = {
  type: 'enrolments',
  format: 'csv',
  parameters: { from: '2026-11-01', to: '2026-11-23' },
};

/** By component name; src/http/openapi-document.ts fails the build when a named schema has none. */
export const SCHEMA_EXAMPLES: Record<string, unknown> = {
  Address: address,
  Assessment: assessment,
  Certificate: certificate,
  CertificateVerification: verification,
  Course: course,
  Document: document,
  DocumentPatch: documentPatch,
  Enrolment: enrolment,
  Error: { message: 'The requested resource was not found.', code: 'not_found' },
  EventEnvelope: envelope,
  HealthCheckResult: check,
  HealthReport: health,
  IntegrationMessage: message,
  LearningResource: resource,
  Meeting: meeting,
  Notification: notification,
  Organization: organization,
  OrganizationPatch: organizationPatch,
  Report: report,
  ReportRequest: reportRequest,
  SearchGroupResult: courseGroup,
  SearchHit: courseHit,
  SearchResults: search,
  Session: session,
  Student: student,
  Task: task,
  TaskDetail: { ...task, recent_runs: [taskRun] } satisfies Static<typeof TaskDetail>,
  TaskRun: taskRun,
  User: user,
  UserCreate: userCreate,
  UserPatch: userPatch,
  WorkflowDecision: decision,
  WorkflowInstance: workflow,
  WorkflowUser: workflowUser,
};
