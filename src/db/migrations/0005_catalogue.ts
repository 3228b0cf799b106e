import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';
import { columns } from './columns.ts';

/**
 * The academic catalogue: courses and their training sessions (intakes) with assessments, learning
 * resources and meetings; students (users with a course application), enrolments with a waitlist,
 * and certificates. Every filter and sort the API offers has an index.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const c = columns(dialect);

  // Students and staff share the users table (one id space). Emails are stored lowercased.
  await db.schema
    .alterTable('users')
    .addColumn('email_verified', c.bool, (col) => col.notNull().defaultTo(false))
    .execute();
  await db.schema.alterTable('users').addColumn('job_title', 'text').execute();
  await db.schema.createIndex('users_name').on('users').column('name').execute();
  await db.schema.createIndex('users_created_at').on('users').column('created_at').execute();
  await db.schema.createIndex('users_updated_at').on('users').column('updated_at').execute();

  await c
    .id(db.schema.createTable('courses'))
    .addColumn('slug', 'text', (col) => col.notNull().unique())
    .addColumn('code', 'text', (col) => col.notNull().unique())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    // Money in minor units of `currency` (cents), shown as a decimal string.
    .addColumn('price_minor', 'bigint', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('language', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('published_at', c.timestamp)
    .addColumn('archived_at', c.timestamp)
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();
  for (const column of ['status', 'title', 'price_minor', 'created_at', 'updated_at']) {
    await db.schema.createIndex(`courses_${column}`).on('courses').column(column).execute();
  }

  await c
    .id(db.schema.createTable('course_applications'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('course_id', 'integer', (col) => col.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .addUniqueConstraint('course_applications_user_course', ['user_id', 'course_id'])
    .execute();
  await db.schema.createIndex('course_applications_course').on('course_applications').column('course_id').execute();

  await c
    .id(db.schema.createTable('training_sessions'))
    .addColumn('course_id', 'integer', (col) => col.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('max_participants', 'integer', (col) => col.notNull())
    .addColumn('waitlist_enabled', c.bool, (col) => col.notNull().defaultTo(true))
    .addColumn('registration_opens_at', c.timestamp)
    .addColumn('registration_closes_at', c.timestamp)
    .addColumn('starts_on', 'date', (col) => col.notNull())
    .addColumn('ends_on', 'date', (col) => col.notNull())
    .addColumn('instructor_name', 'text')
    .addColumn('workflow_state', 'text', (col) => col.notNull())
    // Kept by the enrolment transactions, so that seats and rates are read without counting.
    .addColumn('confirmed_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('waitlisted_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('completed_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('training_sessions_course_starts').on('training_sessions').columns(['course_id', 'starts_on']).execute();
  await db.schema.createIndex('training_sessions_workflow_state').on('training_sessions').column('workflow_state').execute();
  await db.schema.createIndex('training_sessions_updated_at').on('training_sessions').column('updated_at').execute();

  await c
    .id(db.schema.createTable('assessments'))
    .addColumn('session_id', 'integer', (col) => col.notNull().references('training_sessions.id').onDelete('cascade'))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('due_at', c.timestamp)
    .addColumn('max_score', 'integer')
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('assessments_session').on('assessments').column('session_id').execute();

  await c
    .id(db.schema.createTable('learning_resources'))
    .addColumn('session_id', 'integer', (col) => col.notNull().references('training_sessions.id').onDelete('cascade'))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('url', 'text')
    .addColumn('body', 'text')
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('published_at', c.timestamp)
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('learning_resources_session_status').on('learning_resources').columns(['session_id', 'status']).execute();

  await c
    .id(db.schema.createTable('meetings'))
    .addColumn('session_id', 'integer', (col) => col.notNull().references('training_sessions.id').onDelete('cascade'))
    .addColumn('held_on', 'date', (col) => col.notNull())
    .addColumn('starts_at', c.timestamp)
    .addColumn('ends_at', c.timestamp)
    .addColumn('location', 'text')
    // The spec's persisted values: Scheduled, Cancelled.
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('cancelled_at', c.timestamp)
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('meetings_session_held_on').on('meetings').columns(['session_id', 'held_on']).execute();

  await c
    .id(db.schema.createTable('enrolments'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('session_id', 'integer', (col) => col.notNull().references('training_sessions.id').onDelete('cascade'))
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('waitlist_position', 'integer')
    .addColumn('confirmed_at', c.timestamp)
    .addColumn('cancelled_at', c.timestamp)
    .addColumn('cancellation_reason', 'text')
    .addColumn('completion_outcome', 'text')
    .addColumn('completion_notes', 'text')
    .addColumn('completion_recorded_at', c.timestamp)
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();
  // Never two live enrolments of one student in one session; a cancelled one does not count.
  await db.schema
    .createIndex('enrolments_live_user_session')
    .on('enrolments')
    .columns(['user_id', 'session_id'])
    .unique()
    .where(sql.ref('status'), '<>', 'cancelled')
    .execute();
  await db.schema.createIndex('enrolments_session_status').on('enrolments').columns(['session_id', 'status']).execute();
  await db.schema.createIndex('enrolments_status').on('enrolments').column('status').execute();
  await db.schema.createIndex('enrolments_user').on('enrolments').column('user_id').execute();
  await db.schema.createIndex('enrolments_created_at').on('enrolments').column('created_at').execute();
  await db.schema.createIndex('enrolments_updated_at').on('enrolments').column('updated_at').execute();

  await c
    .id(db.schema.createTable('certificates'))
    .addColumn('enrolment_id', 'integer', (col) => col.notNull().unique().references('enrolments.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('course_id', 'integer', (col) => col.notNull().references('courses.id').onDelete('cascade'))
    .addColumn('session_id', 'integer', (col) => col.notNull().references('training_sessions.id').onDelete('cascade'))
    .addColumn('certificate_number', 'text', (col) => col.notNull().unique())
    .addColumn('verification_token', 'text', (col) => col.notNull().unique())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('issued_at', c.timestamp, (col) => col.notNull())
    .addColumn('revoked_at', c.timestamp)
    .addColumn('revocation_reason', 'text')
    .addColumn('created_at', c.timestamp, (col) => col.notNull())
    .addColumn('updated_at', c.timestamp, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('certificates_user').on('certificates').column('user_id').execute();
  await db.schema.createIndex('certificates_course').on('certificates').column('course_id').execute();
  await db.schema.createIndex('certificates_issued_at').on('certificates').column('issued_at').execute();
  await db.schema.createIndex('certificates_updated_at').on('certificates').column('updated_at').execute();
}
