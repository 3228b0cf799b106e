import { randomBytes } from 'node:crypto';
import type { Insertable, Selectable } from 'kysely';
import type {
  AssessmentTable,
  CertificateTable,
  CourseApplicationTable,
  CourseTable,
  DB,
  EnrolmentTable,
  EventTable,
  IntegrationMessageTable,
  IntegrationTable,
  JobTable,
  LearningResourceTable,
  MeetingTable,
  NotificationTable,
  ScheduledTaskRunTable,
  TrainingSessionTable,
  UserTable,
  WebhookDeliveryTable,
  WebhookEndpointTable,
  WorkflowInstanceTable,
} from '../../src/db/schema.ts';
import type { Platform } from '../../src/platform/platform.ts';

let sequence = 0;
/** A value unique within the test process, for names, keys and emails. */
export function unique(prefix: string): string {
  sequence += 1;
  return `${prefix}-${process.pid}-${sequence}`;
}

type Overrides<T> = Partial<Insertable<T>>;

/**
 * Valid records with unique defaults, written straight to the database, for tests that need data to
 * exist rather than to exercise how it is created. A fixture creates the parents it needs when none
 * are given (a message gets an integration, a delivery an endpoint and an event). Each returns the row
 * as stored.
 */
export function fixtures(platform: Platform) {
  const db = platform.database.db;
  const now = () => platform.clock.now().toISOString();

  async function insert<T extends keyof DB & string>(table: T, values: Insertable<DB[T]>): Promise<Selectable<DB[T]>> {
    return (db as any).insertInto(table).values(values).returningAll().executeTakeFirstOrThrow();
  }

  const self = {
    async user(overrides: Overrides<UserTable> = {}) {
      const name = overrides.name ?? unique('User');
      return insert('users', {
        name,
        email: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@example.org`,
        status: 'active',
        is_admin: false,
        permissions: '[]',
        created_at: now(),
        updated_at: now(),
        ...overrides,
      });
    },

    /** A staff user (`is_admin`), `active` unless `status` says otherwise. */
    async staff(overrides: Overrides<UserTable> = {}) {
      return self.user({ is_admin: true, status: 'active', ...overrides });
    },

    /** A token's secret (to send) and id, with the given scopes. */
    async token(scopes: string[] = ['*'], options: { userId?: number; expiresInDays?: number | null } = {}) {
      let userEmail: string | undefined;
      if (options.userId !== undefined) {
        userEmail = (await db.selectFrom('users').select('email').where('id', '=', options.userId).executeTakeFirstOrThrow()).email;
      }
      const created = await platform.tokens.create({ name: unique('token'), scopes, userEmail, expiresInDays: options.expiresInDays });
      return { secret: created.token, id: created.record.id };
    },

    async event(overrides: Overrides<EventTable> = {}) {
      return insert('events', {
        id: `evt_${randomBytes(12).toString('base64url')}`,
        type: 'enrollment.created',
        version: '1',
        occurred_at: now(),
        payload: '{}',
        ...overrides,
      });
    },

    async webhookEndpoint(overrides: Overrides<WebhookEndpointTable> = {}) {
      return insert('webhook_endpoints', {
        url: `https://${unique('hooks')}.example.org/receive`,
        // Stored as the service stores it: encrypted under the platform's key.
        secret: platform.secrets.seal('webhookSecret', `whsec_${randomBytes(24).toString('base64')}`),
        events: null,
        enabled: true,
        disabled_reason: null,
        created_at: now(),
        updated_at: now(),
        ...overrides,
        ...(overrides.secret === undefined ? {} : { secret: platform.secrets.seal('webhookSecret', overrides.secret) }),
      });
    },

    async webhookDelivery(overrides: Overrides<WebhookDeliveryTable> = {}) {
      const endpointId = overrides.endpoint_id ?? (await self.webhookEndpoint()).id;
      const event = overrides.event_id
        ? { id: overrides.event_id, type: overrides.event_type ?? 'enrollment.created' }
        : await self.event();
      return insert('webhook_deliveries', {
        endpoint_id: endpointId,
        event_id: event.id,
        event_type: event.type,
        status: 'pending',
        attempts: 0,
        last_status_code: null,
        last_error: null,
        next_attempt_at: now(),
        completed_at: null,
        created_at: now(),
        updated_at: now(),
        ...overrides,
      });
    },

    async integration(overrides: Overrides<IntegrationTable> = {}) {
      const key = overrides.key ?? unique('crm').replace(/[^a-z0-9]+/g, '-');
      return insert('integrations', {
        key,
        name: `Integration ${key}`,
        url: `https://${key}.example.org/inbox`,
        events: null,
        auth_header: null,
        enabled: true,
        created_at: now(),
        updated_at: now(),
        ...overrides,
        ...(typeof overrides.auth_header === 'string'
          ? { auth_header: platform.secrets.seal('integrationAuthHeader', overrides.auth_header) }
          : {}),
      });
    },

    async integrationMessage(overrides: Overrides<IntegrationMessageTable> = {}) {
      const integration =
        overrides.integration_id !== undefined
          ? await db.selectFrom('integrations').selectAll().where('id', '=', overrides.integration_id).executeTakeFirstOrThrow()
          : await self.integration();
      const event = await self.event({ type: overrides.event_type ?? 'enrollment.created' });
      const envelope = { id: event.id, type: event.type, version: event.version, occurred_at: event.occurred_at, payload: {} };
      return insert('integration_messages', {
        integration_id: integration.id,
        integration_key: integration.key,
        event_id: event.id,
        event_type: event.type,
        payload: JSON.stringify(envelope),
        status: 'queued',
        attempts: 0,
        max_attempts: 5,
        last_status_code: null,
        last_error: null,
        delivered_at: null,
        failed_at: null,
        created_at: now(),
        updated_at: now(),
        ...overrides,
      });
    },

    /** A sent identity notification (a suspension's, by default) to `user_id`, at the user's address. */
    async notification(overrides: Overrides<NotificationTable> & { user_id: number; recipient: string }) {
      return insert('notifications', {
        type: 'suspension',
        status: 'sent',
        subject: 'Your Academy account has been suspended',
        locale: 'en',
        attempts: 1,
        max_attempts: 6,
        last_error: null,
        message_id: null,
        sent_at: now(),
        failed_at: null,
        created_at: now(),
        updated_at: now(),
        ...overrides,
      });
    },

    async job(overrides: Overrides<JobTable> = {}) {
      return insert('jobs', {
        name: 'system.noop',
        payload: '{}',
        key: null,
        run_at: now(),
        attempts: 0,
        max_attempts: 3,
        last_error: null,
        locked_by: null,
        locked_at: null,
        failed_at: null,
        created_at: now(),
        updated_at: now(),
        ...overrides,
      });
    },

    /** A run of a scheduled task (by default of the first task). */
    async taskRun(overrides: Overrides<ScheduledTaskRunTable> = {}) {
      const taskId = overrides.task_id ?? (await db.selectFrom('scheduled_tasks').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
      return insert('scheduled_task_runs', {
        task_id: taskId,
        trigger: 'manual',
        status: 'queued',
        scheduled_for: null,
        queued_at: now(),
        started_at: null,
        finished_at: null,
        error: null,
        ...overrides,
      });
    },

    async course(overrides: Overrides<CourseTable> = {}) {
      const slug = overrides.slug ?? unique('course').toLowerCase();
      return insert('courses', {
        slug,
        code: slug.toUpperCase(),
        title: `Course ${slug}`,
        description: null,
        price_minor: 45000,
        currency: 'EUR',
        language: 'en',
        status: 'published',
        published_at: now(),
        archived_at: null,
        created_at: now(),
        updated_at: now(),
        ...overrides,
      });
    },

    /** A training session (intake), of a new published course unless `course_id` is given. */
    async session(overrides: Overrides<TrainingSessionTable> = {}) {
      const courseId = overrides.course_id ?? (await self.course()).id;
      return insert('training_sessions', {
        course_id: courseId,
        name: unique('Intake'),
        max_participants: 20,
        waitlist_enabled: true,
        registration_opens_at: null,
        registration_closes_at: null,
        starts_on: '2027-01-11',
        ends_on: '2027-01-15',
        instructor_name: 'Ada Lovelace',
        workflow_state: 'open_for_registration',
        created_at: now(),
        updated_at: now(),
        ...overrides,
      });
    },

    async assessment(overrides: Overrides<AssessmentTable> = {}) {
      const sessionId = overrides.session_id ?? (await self.session()).id;
      return insert('assessments', {
        session_id: sessionId,
        title: unique('Assessment'),
        kind: 'exam',
        due_at: null,
        max_score: 100,
        created_at: now(),
        updated_at: now(),
        ...overrides,
      });
    },

    async resource(overrides: Overrides<LearningResourceTable> = {}) {
      const sessionId = overrides.session_id ?? (await self.session()).id;
      return insert('learning_resources', {
        session_id: sessionId,
        title: unique('Resource'),
        type: 'link',
        url: 'https://example.org/material',
        body: null,
        status: 'published',
        published_at: now(),
        created_at: now(),
        updated_at: now(),
        ...overrides,
      });
    },

    async meeting(overrides: Overrides<MeetingTable> = {}) {
      const sessionId = overrides.session_id ?? (await self.session()).id;
      return insert('meetings', {
        session_id: sessionId,
        held_on: '2027-01-11',
        starts_at: null,
        ends_at: null,
        location: 'Room 1',
        status: 'Scheduled',
        cancelled_at: null,
        created_at: now(),
        updated_at: now(),
        ...overrides,
      });
    },

    /** A student: a user with an application to a course (a new one unless `courseId` is given). */
    async student(overrides: Overrides<UserTable> = {}, options: { courseId?: number } = {}) {
      const user = await self.user(overrides);
      await self.application({ user_id: user.id, ...(options.courseId !== undefined ? { course_id: options.courseId } : {}) });
      return user;
    },

    async application(overrides: Overrides<CourseApplicationTable> = {}) {
      const userId = overrides.user_id ?? (await self.user()).id;
      const courseId = overrides.course_id ?? (await self.course()).id;
      return insert('course_applications', {
        user_id: userId,
        course_id: courseId,
        source: 'admin',
        created_at: now(),
        updated_at: now(),
        ...overrides,
      });
    },

    /**
     * An enrolment row as stored (confirmed by default). It does not move the session's counters:
     * tests of seats and waitlists go through the enrolment service.
     */
    async enrolment(overrides: Overrides<EnrolmentTable> = {}) {
      const sessionId = overrides.session_id ?? (await self.session()).id;
      const userId = overrides.user_id ?? (await self.student()).id;
      return insert('enrolments', {
        user_id: userId,
        session_id: sessionId,
        status: 'confirmed',
        waitlist_position: null,
        confirmed_at: now(),
        cancelled_at: null,
        cancellation_reason: null,
        completion_outcome: null,
        completion_notes: null,
        completion_recorded_at: null,
        created_at: now(),
        updated_at: now(),
        ...overrides,
      });
    },

    /** A valid certificate of a confirmed enrolment completed as passed (created unless given). */
    async certificate(overrides: Overrides<CertificateTable> = {}) {
      const enrolment =
        overrides.enrolment_id !== undefined
          ? await db.selectFrom('enrolments').selectAll().where('id', '=', overrides.enrolment_id).executeTakeFirstOrThrow()
          : await self.enrolment({ completion_outcome: 'passed', completion_recorded_at: now() });
      const session = await db
        .selectFrom('training_sessions')
        .select('course_id')
        .where('id', '=', enrolment.session_id)
        .executeTakeFirstOrThrow();
      return insert('certificates', {
        enrolment_id: enrolment.id,
        user_id: enrolment.user_id,
        course_id: session.course_id,
        session_id: enrolment.session_id,
        certificate_number: unique('CERT').toUpperCase(),
        verification_token: randomBytes(24).toString('base64url'),
        status: 'valid',
        issued_at: now(),
        revoked_at: null,
        revocation_reason: null,
        created_at: now(),
        updated_at: now(),
        ...overrides,
      });
    },

    /** A workflow instance (a `course_approval` in `pending` about a new course unless overridden). */
    async workflow(overrides: Overrides<WorkflowInstanceTable> = {}) {
      const subjectId = overrides.subject_id !== undefined ? overrides.subject_id : (await self.course({ status: 'review' })).id;
      return insert('workflow_instances', {
        workflow: 'course_approval',
        state: 'pending',
        subject_type: 'course',
        subject_id: subjectId,
        assignee_id: null,
        created_at: now(),
        updated_at: now(),
        ...overrides,
      });
    },
  };
  return self;
}

export type Fixtures = ReturnType<typeof fixtures>;
