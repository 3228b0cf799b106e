import { type TSchema, Type } from 'typebox';
import { Nullable, StringEnum, Timestamp } from '../../http/schemas.ts';
import { EVENT_VERSION, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../platform/events/types.ts';
import { COMPLETION_OUTCOMES } from '../enrolments/schemas.ts';
import { REPORT_FORMATS, REPORT_TYPES } from '../reports/types.ts';

/**
 * The payload of every event type delivered to webhook endpoints and integrations, as the modules
 * write it to the outbox. Keyed by the one list of delivered types (WEBHOOK_EVENT_TYPES, which the
 * dispatcher filters by), so a type added there without a documented payload fails the typecheck.
 * The OpenAPI document's `webhooks` section is built from these (src/assembly/openapi-document.ts).
 */

const Id = (description: string) => Type.Integer({ minimum: 1, description });
const Slug = Type.String({ description: "The course's slug.", examples: ['project-management-fundamentals'] });
const At = Timestamp('When the change happened.');

const ENROLMENT_IDS = {
  enrolment_id: Id('The enrolment.'),
  student_id: Id('The student (a user id).'),
  session_id: Id('The session (course intake).'),
  course_id: Id('The course.'),
};

const COURSE = {
  course_id: Id('The course.'),
  slug: Slug,
  code: Type.String({ description: "The provider's course code.", examples: ['PM-101'] }),
  title: Type.String({ examples: ['Project Management Fundamentals'] }),
};

const SESSION = {
  session_id: Id('The session (course intake).'),
  course_id: Id('Its course.'),
  course: Slug,
  name: Type.String({ description: 'The name of the session.', examples: ['Autumn cohort'] }),
  starts_on: Type.String({ format: 'date' }),
  ends_on: Type.String({ format: 'date' }),
  at: At,
};

const HEALTH_STATUSES = ['pass', 'warn', 'fail'] as const;

interface EventDoc {
  summary: string;
  payload: TSchema;
  example: Record<string, unknown>;
}

export const WEBHOOK_EVENTS = {
  'enrollment.created': {
    summary: 'A student was enrolled in a session: confirmed while seats remain, otherwise waitlisted.',
    payload: Type.Object({
      ...ENROLMENT_IDS,
      status: StringEnum(['confirmed', 'waitlisted'] as const),
      waitlist_position: Nullable(Type.Integer({ minimum: 1, description: '1-based, while waitlisted.' })),
    }),
    example: { enrolment_id: 27, student_id: 30, session_id: 3, course_id: 3, status: 'confirmed', waitlist_position: null },
  },
  'enrollment.promoted': {
    summary: 'A freed seat went to the oldest waitlisted enrolment, which is now confirmed.',
    payload: Type.Object({
      ...ENROLMENT_IDS,
      status: StringEnum(['confirmed'] as const),
      previous_waitlist_position: Type.Integer({ minimum: 1 }),
    }),
    example: { enrolment_id: 52, student_id: 61, session_id: 3, course_id: 3, status: 'confirmed', previous_waitlist_position: 1 },
  },
  'enrollment.completed': {
    summary: "A confirmed enrolment's completion was recorded.",
    payload: Type.Object({
      ...ENROLMENT_IDS,
      completion_outcome: StringEnum(COMPLETION_OUTCOMES),
      at: At,
    }),
    example: {
      enrolment_id: 27,
      student_id: 30,
      session_id: 3,
      course_id: 3,
      completion_outcome: 'passed',
      at: '2026-12-09T16:30:00.000Z',
    },
  },
  'certificate.issued': {
    summary: 'A certificate was issued for a passed enrolment.',
    payload: Type.Object({
      certificate_id: Id('The certificate.'),
      certificate_number: Type.String({ examples: ['CERT-2026-000123'] }),
      student_id: Id('The holder (a user id).'),
      course_id: Id('The course.'),
      course: Slug,
      session_id: Id('The session.'),
      enrolment_id: Id('The enrolment it certifies.'),
      issued_at: Timestamp('When it was issued.'),
    }),
    example: {
      certificate_id: 123,
      certificate_number: 'CERT-2026-000123',
      student_id: 30,
      course_id: 3,
      course: 'project-management-fundamentals',
      session_id: 3,
      enrolment_id: 27,
      issued_at: '2026-12-10T09:00:00.000Z',
    },
  },
  'course.published': {
    summary: 'A course was published: it is now active in the catalogue.',
    payload: Type.Object({ ...COURSE, status: StringEnum(['published'] as const), at: At }),
    example: {
      course_id: 3,
      slug: 'project-management-fundamentals',
      code: 'PM-101',
      title: 'Project Management Fundamentals',
      status: 'published',
      at: '2026-03-02T10:00:00.000Z',
    },
  },
  'course.archived': {
    summary: 'A course was archived (final).',
    payload: Type.Object({ ...COURSE, status: StringEnum(['archived'] as const), at: At }),
    example: {
      course_id: 1,
      slug: 'advanced-excel',
      code: 'XL-300',
      title: 'Advanced Excel',
      status: 'archived',
      at: '2026-05-30T06:00:00.000Z',
    },
  },
  'course_application.imported': {
    summary: 'One batch of an applications import (CSV) was committed.',
    payload: Type.Object({
      import_id: Type.String({ description: 'Shared by every batch of one import.' }),
      source: Type.String({ description: 'Where the rows came from, e.g. the file name.' }),
      batch: Type.Integer({ minimum: 1, description: '1-based number of this batch.' }),
      batches: Type.Integer({ minimum: 1, description: 'Batches in the import.' }),
      students_created: Type.Integer({ minimum: 0 }),
      applications_created: Type.Integer({ minimum: 1 }),
      applications: Type.Array(
        Type.Object({
          id: Id('The application.'),
          student_id: Id('The student.'),
          course_id: Id('The course.'),
          course: Nullable(Type.String()),
        }),
      ),
    }),
    example: {
      import_id: 'imp_5Jx2QnV8',
      source: 'applications-2026-09.csv',
      batch: 1,
      batches: 1,
      students_created: 1,
      applications_created: 1,
      applications: [{ id: 88, student_id: 30, course_id: 3, course: 'project-management-fundamentals' }],
    },
  },
  'export.completed': {
    summary: 'A requested report is available for download.',
    payload: Type.Object({
      report_id: Id('The report.'),
      type: StringEnum(REPORT_TYPES),
      format: StringEnum(REPORT_FORMATS),
      row_count: Type.Integer({ minimum: 0 }),
      size: Type.Integer({ minimum: 0, description: 'Bytes of the file.' }),
      download_path: Type.String({ description: 'Where to download it (needs `reports:read`).' }),
    }),
    example: { report_id: 6, type: 'enrolments', format: 'csv', row_count: 212, size: 28415, download_path: '/api/v1/reports/6/download' },
  },
  'job.failed': {
    summary: 'A background job failed for good after its last attempt.',
    payload: Type.Object({
      job_id: Id('The job.'),
      job_name: Type.String({ examples: ['notifications.deliver'] }),
      attempts: Type.Integer({ minimum: 1 }),
      last_error: Type.String(),
    }),
    example: { job_id: 4410, job_name: 'notifications.deliver', attempts: 5, last_error: 'SMTP 421: service not available' },
  },
  'alert.sent': {
    summary: 'The overall health got worse (pass → warn or fail, warn → fail).',
    payload: Type.Object({
      previous: Nullable(StringEnum(HEALTH_STATUSES)),
      current: StringEnum(HEALTH_STATUSES),
      failing_checks: Type.Array(
        Type.Object({ name: Type.String(), status: StringEnum(HEALTH_STATUSES), output: Nullable(Type.String()) }),
      ),
    }),
    example: {
      previous: 'pass',
      current: 'fail',
      failing_checks: [{ name: 'storage', status: 'fail', output: 'The storage directory is not writable.' }],
    },
  },
  'course_intake.registration_opened': {
    summary: 'A session opened for registration.',
    payload: Type.Object({ ...SESSION, workflow_state: StringEnum(['open_for_registration'] as const) }),
    example: {
      session_id: 3,
      course_id: 3,
      course: 'project-management-fundamentals',
      name: 'Autumn cohort',
      workflow_state: 'open_for_registration',
      starts_on: '2026-12-07',
      ends_on: '2026-12-09',
      at: '2026-09-01T08:00:00.000Z',
    },
  },
  'course_intake.completed': {
    summary: 'A session was completed.',
    payload: Type.Object({ ...SESSION, workflow_state: StringEnum(['completed'] as const) }),
    example: {
      session_id: 1,
      course_id: 1,
      course: 'advanced-excel',
      name: 'Final run',
      workflow_state: 'completed',
      starts_on: '2026-05-08',
      ends_on: '2026-05-09',
      at: '2026-05-10T06:00:00.000Z',
    },
  },
  'course_intake.cancelled': {
    summary: 'A session was cancelled.',
    payload: Type.Object({ ...SESSION, workflow_state: StringEnum(['cancelled'] as const) }),
    example: {
      session_id: 5,
      course_id: 4,
      course: 'python-for-data-analysis',
      name: 'Evening cohort',
      workflow_state: 'cancelled',
      starts_on: '2027-01-11',
      ends_on: '2027-02-15',
      at: '2026-11-20T12:00:00.000Z',
    },
  },
} as const satisfies Record<WebhookEventType, EventDoc>;

/** The envelope of one event type (spec §6): `{id, type, version, occurred_at, payload}`. */
export function webhookEnvelope(type: WebhookEventType, payload: TSchema) {
  return Type.Object({
    id: Type.String({ description: 'Unique per event; also sent as `webhook-id`. Receivers de-duplicate on it.' }),
    type: Type.Literal(type),
    version: Type.Literal(EVENT_VERSION),
    occurred_at: Timestamp('When the change was committed.'),
    payload,
  });
}

export { WEBHOOK_EVENT_TYPES };
