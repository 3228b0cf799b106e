import { type Compilable, type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';

export const REPORT_TYPES = ['enrolments', 'completions', 'certificates_issued', 'attendance', 'session_capacity'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export const REPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** What a report may be narrowed to; each type says which of these it takes. */
export interface ReportParameters {
  course_id?: number;
  session_id?: number;
  status?: string;
  from?: string;
  to?: string;
}

export interface ReportColumn {
  key: string;
  header: string;
}

export interface ReportDefinition {
  title: string;
  description: string;
  /** Days a generated report is kept before the expiry task removes it. */
  expiryDays: number;
  parameters: readonly (keyof ReportParameters)[];
  columns: readonly ReportColumn[];
  /**
   * The query of the rows whose `id` is above `afterId` and at most `upTo`, by id: reports are read in
   * pages of id ranges. It selects exactly `columns`, in their order (read as arrays: a row is its values).
   */
  page(db: Kysely<DB>, parameters: ReportParameters, afterId: number, upTo: number): Compilable<unknown>;
  /**
   * The select of one value, the highest id of the report's table (null when it is empty): read in the
   * generation's snapshot, its last page ends there.
   */
  lastId(db: Kysely<DB>): Compilable<unknown>;
  /** The select of one value, how many rows the report will have (for its progress). */
  count(db: Kysely<DB>, parameters: ReportParameters): Compilable<unknown>;
}

const dayStart = (date: string) => `${date}T00:00:00.000Z`;
const dayEnd = (date: string) => `${date}T23:59:59.999Z`;

/**
 * Dialects differ in two ways in a report's page, both decided here:
 * - **Lookups.** A page's user, session and course are looked up row by row, by primary key. SQLite
 *   always joins that way. PostgreSQL, joining plainly, hashed the whole users table for every page
 *   (a sequential scan of 110,000 users, 35 ms, for a page of 5,000 enrolments), so that a report's
 *   time grew with its rows times the users. There each lookup is a lateral subquery of one row,
 *   which the planner cannot turn into a hash join: a page costs its own rows, whatever the tables hold.
 * - **Timestamps.** PostgreSQL's are formatted as ISO 8601 by the server (the driver would parse each
 *   into a Date and format it again: a second of a 500,000-row report); SQLite holds them so.
 */
export function onPostgres(db: Kysely<DB>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A lookup's `limit 1`, written in the statement: planned as one row whether or not it is prepared. */
const ONE = sql.lit(1);

type TimestampColumn =
  | 'enrolments.created_at'
  | 'enrolments.cancelled_at'
  | 'enrolments.completion_recorded_at'
  | 'certificates.issued_at'
  | 'certificates.revoked_at'
  | 'meetings.starts_at'
  | 'meetings.ends_at';

/** A timestamp column as an ISO 8601 string (`2026-01-31T09:00:00.000Z`), as both dialects hand it back. */
function iso(db: Kysely<DB>, column: TimestampColumn): RawBuilder<string | null> {
  return onPostgres(db) ? sql`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : sql`${sql.ref(column)}`;
}

/** The enrolments with one user, session and course each, looked up by id (the columns reports show of them). */
function enrolmentsFrom(db: Kysely<DB>) {
  const lateral = db
    .selectFrom('enrolments')
    .innerJoinLateral(
      (eb) =>
        eb.selectFrom('users').select(['users.name', 'users.email']).whereRef('users.id', '=', 'enrolments.user_id').limit(ONE).as('users'),
      (join) => join.onTrue(),
    )
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('training_sessions')
          .select(['training_sessions.name', 'training_sessions.course_id'])
          .whereRef('training_sessions.id', '=', 'enrolments.session_id')
          .limit(ONE)
          .as('training_sessions'),
      (join) => join.onTrue(),
    )
    .innerJoinLateral(
      (eb) =>
        eb.selectFrom('courses').select('courses.slug').whereRef('courses.id', '=', 'training_sessions.course_id').limit(ONE).as('courses'),
      (join) => join.onTrue(),
    );
  if (onPostgres(db)) return lateral;
  // The same columns, plainly joined: the tables' other columns are not used.
  return db
    .selectFrom('enrolments')
    .innerJoin('users', 'users.id', 'enrolments.user_id')
    .innerJoin('training_sessions', 'training_sessions.id', 'enrolments.session_id')
    .innerJoin('courses', 'courses.id', 'training_sessions.course_id') as unknown as typeof lateral;
}

/** The certificates with their holder and course, looked up by id. */
function certificatesFrom(db: Kysely<DB>) {
  const lateral = db
    .selectFrom('certificates')
    .innerJoinLateral(
      (eb) => eb.selectFrom('users').select('users.name').whereRef('users.id', '=', 'certificates.user_id').limit(ONE).as('users'),
      (join) => join.onTrue(),
    )
    .innerJoinLateral(
      (eb) =>
        eb.selectFrom('courses').select('courses.slug').whereRef('courses.id', '=', 'certificates.course_id').limit(ONE).as('courses'),
      (join) => join.onTrue(),
    );
  if (onPostgres(db)) return lateral;
  return db
    .selectFrom('certificates')
    .innerJoin('users', 'users.id', 'certificates.user_id')
    .innerJoin('courses', 'courses.id', 'certificates.course_id') as unknown as typeof lateral;
}

/** The meetings with their session and its course, looked up by id. */
function meetingsFrom(db: Kysely<DB>) {
  const lateral = db
    .selectFrom('meetings')
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('training_sessions')
          .select(['training_sessions.course_id', 'training_sessions.confirmed_count'])
          .whereRef('training_sessions.id', '=', 'meetings.session_id')
          .limit(ONE)
          .as('training_sessions'),
      (join) => join.onTrue(),
    )
    .innerJoinLateral(
      (eb) =>
        eb.selectFrom('courses').select('courses.slug').whereRef('courses.id', '=', 'training_sessions.course_id').limit(ONE).as('courses'),
      (join) => join.onTrue(),
    );
  if (onPostgres(db)) return lateral;
  return db
    .selectFrom('meetings')
    .innerJoin('training_sessions', 'training_sessions.id', 'meetings.session_id')
    .innerJoin('courses', 'courses.id', 'training_sessions.course_id') as unknown as typeof lateral;
}

function enrolmentsBase(db: Kysely<DB>, p: ReportParameters, at: 'enrolments.created_at' | 'enrolments.completion_recorded_at') {
  let query = enrolmentsFrom(db);
  if (p.course_id !== undefined) query = query.where('training_sessions.course_id', '=', p.course_id);
  if (p.session_id !== undefined) query = query.where('enrolments.session_id', '=', p.session_id);
  if (p.from !== undefined) query = query.where(at, '>=', dayStart(p.from));
  if (p.to !== undefined) query = query.where(at, '<=', dayEnd(p.to));
  return query;
}

/** The count of a query's rows, as a select of one value. */
function counted(query: { select: (s: any) => Compilable<unknown> }): Compilable<unknown> {
  return query.select(sql<number | string>`count(*)`.as('n'));
}

/** The highest id of a table (null when it is empty), as a select of one value. */
function lastId(db: Kysely<DB>, table: 'enrolments' | 'certificates' | 'meetings' | 'training_sessions'): Compilable<unknown> {
  return db.selectFrom(table).select((eb) => eb.fn.max('id').as('last'));
}

/**
 * The count of an enrolments report, for its progress: the enrolments table alone, joined to the
 * sessions only for a course filter. Every enrolment has its user, session and course (foreign keys,
 * not null), so the report's joins drop no row; counting through them took seconds on 500,000 rows.
 */
function enrolmentsCount(db: Kysely<DB>, p: ReportParameters, at: 'enrolments.created_at' | 'enrolments.completion_recorded_at') {
  let query = db.selectFrom('enrolments');
  if (p.course_id !== undefined) {
    const course = p.course_id;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('training_sessions')
          .select('training_sessions.id')
          .whereRef('training_sessions.id', '=', 'enrolments.session_id')
          .where('training_sessions.course_id', '=', course),
      ),
    );
  }
  if (p.session_id !== undefined) query = query.where('enrolments.session_id', '=', p.session_id);
  if (p.from !== undefined) query = query.where(at, '>=', dayStart(p.from));
  if (p.to !== undefined) query = query.where(at, '<=', dayEnd(p.to));
  return query;
}

export const REPORTS: Record<ReportType, ReportDefinition> = {
  enrolments: {
    title: 'Enrolments',
    description: 'Every enrolment with its student, course, session, status, waitlist position and dates.',
    expiryDays: 7,
    parameters: ['course_id', 'session_id', 'status', 'from', 'to'],
    columns: [
      { key: 'id', header: 'enrolment_id' },
      { key: 'student_id', header: 'student_id' },
      { key: 'student_name', header: 'student_name' },
      { key: 'student_email', header: 'student_email' },
      { key: 'course', header: 'course' },
      { key: 'session_id', header: 'session_id' },
      { key: 'session_name', header: 'session_name' },
      { key: 'status', header: 'status' },
      { key: 'waitlist_position', header: 'waitlist_position' },
      { key: 'created_at', header: 'enrolled_at' },
      { key: 'cancelled_at', header: 'cancelled_at' },
      { key: 'completion_outcome', header: 'completion_outcome' },
    ],
    page: (db, p, afterId, upTo) => {
      let query = enrolmentsBase(db, p, 'enrolments.created_at');
      if (p.status !== undefined) query = query.where('enrolments.status', '=', p.status);
      return query
        .select([
          'enrolments.id',
          'enrolments.user_id as student_id',
          'users.name as student_name',
          'users.email as student_email',
          'courses.slug as course',
          'enrolments.session_id',
          'training_sessions.name as session_name',
          'enrolments.status',
          'enrolments.waitlist_position',
          iso(db, 'enrolments.created_at').as('created_at'),
          iso(db, 'enrolments.cancelled_at').as('cancelled_at'),
          'enrolments.completion_outcome',
        ])
        .where('enrolments.id', '>', afterId)
        .where('enrolments.id', '<=', upTo)
        .orderBy('enrolments.id');
    },
    lastId: (db) => lastId(db, 'enrolments'),
    count: (db, p) => {
      let query = enrolmentsCount(db, p, 'enrolments.created_at');
      if (p.status !== undefined) query = query.where('enrolments.status', '=', p.status);
      return counted(query as never);
    },
  },
  completions: {
    title: 'Completions',
    description: 'Completed enrolments with their outcome and when it was recorded.',
    expiryDays: 30,
    parameters: ['course_id', 'session_id', 'from', 'to'],
    columns: [
      { key: 'id', header: 'enrolment_id' },
      { key: 'student_id', header: 'student_id' },
      { key: 'student_name', header: 'student_name' },
      { key: 'course', header: 'course' },
      { key: 'session_id', header: 'session_id' },
      { key: 'completion_outcome', header: 'outcome' },
      { key: 'completion_recorded_at', header: 'recorded_at' },
    ],
    page: (db, p, afterId, upTo) =>
      enrolmentsBase(db, p, 'enrolments.completion_recorded_at')
        .where('enrolments.completion_outcome', 'is not', null)
        .select([
          'enrolments.id',
          'enrolments.user_id as student_id',
          'users.name as student_name',
          'courses.slug as course',
          'enrolments.session_id',
          'enrolments.completion_outcome',
          iso(db, 'enrolments.completion_recorded_at').as('completion_recorded_at'),
        ])
        .where('enrolments.id', '>', afterId)
        .where('enrolments.id', '<=', upTo)
        .orderBy('enrolments.id'),
    lastId: (db) => lastId(db, 'enrolments'),
    count: (db, p) =>
      counted(enrolmentsCount(db, p, 'enrolments.completion_recorded_at').where('enrolments.completion_outcome', 'is not', null) as never),
  },
  certificates_issued: {
    title: 'Certificates issued',
    description: 'Certificates with their number, holder, course and status (revoked ones included).',
    expiryDays: 30,
    parameters: ['course_id', 'from', 'to'],
    columns: [
      { key: 'id', header: 'certificate_id' },
      { key: 'certificate_number', header: 'certificate_number' },
      { key: 'student_id', header: 'student_id' },
      { key: 'holder_name', header: 'holder_name' },
      { key: 'course', header: 'course' },
      { key: 'status', header: 'status' },
      { key: 'issued_at', header: 'issued_at' },
      { key: 'revoked_at', header: 'revoked_at' },
    ],
    page: (db, p, afterId, upTo) => {
      let query = certificatesFrom(db).select([
        'certificates.id',
        'certificates.certificate_number',
        'certificates.user_id as student_id',
        'users.name as holder_name',
        'courses.slug as course',
        'certificates.status',
        iso(db, 'certificates.issued_at').as('issued_at'),
        iso(db, 'certificates.revoked_at').as('revoked_at'),
      ]);
      if (p.course_id !== undefined) query = query.where('certificates.course_id', '=', p.course_id);
      if (p.from !== undefined) query = query.where('certificates.issued_at', '>=', dayStart(p.from));
      if (p.to !== undefined) query = query.where('certificates.issued_at', '<=', dayEnd(p.to));
      return query.where('certificates.id', '>', afterId).where('certificates.id', '<=', upTo).orderBy('certificates.id');
    },
    lastId: (db) => lastId(db, 'certificates'),
    count: (db, p) => {
      let query = db.selectFrom('certificates');
      if (p.course_id !== undefined) query = query.where('certificates.course_id', '=', p.course_id);
      if (p.from !== undefined) query = query.where('certificates.issued_at', '>=', dayStart(p.from));
      if (p.to !== undefined) query = query.where('certificates.issued_at', '<=', dayEnd(p.to));
      return counted(query as never);
    },
  },
  attendance: {
    title: 'Meetings and attendance',
    description: 'Meetings with their session, day, times, status, and the session’s confirmed participants.',
    expiryDays: 14,
    parameters: ['course_id', 'session_id', 'from', 'to'],
    columns: [
      { key: 'id', header: 'meeting_id' },
      { key: 'course', header: 'course' },
      { key: 'session_id', header: 'session_id' },
      { key: 'held_on', header: 'held_on' },
      { key: 'starts_at', header: 'starts_at' },
      { key: 'ends_at', header: 'ends_at' },
      { key: 'location', header: 'location' },
      { key: 'status', header: 'status' },
      { key: 'confirmed_count', header: 'expected_participants' },
    ],
    page: (db, p, afterId, upTo) => {
      let query = meetingsFrom(db).select([
        'meetings.id',
        'courses.slug as course',
        'meetings.session_id',
        'meetings.held_on',
        iso(db, 'meetings.starts_at').as('starts_at'),
        iso(db, 'meetings.ends_at').as('ends_at'),
        'meetings.location',
        'meetings.status',
        'training_sessions.confirmed_count',
      ]);
      if (p.course_id !== undefined) query = query.where('training_sessions.course_id', '=', p.course_id);
      if (p.session_id !== undefined) query = query.where('meetings.session_id', '=', p.session_id);
      if (p.from !== undefined) query = query.where('meetings.held_on', '>=', p.from);
      if (p.to !== undefined) query = query.where('meetings.held_on', '<=', p.to);
      return query.where('meetings.id', '>', afterId).where('meetings.id', '<=', upTo).orderBy('meetings.id');
    },
    lastId: (db) => lastId(db, 'meetings'),
    count: (db, p) => {
      let query = db.selectFrom('meetings').innerJoin('training_sessions', 'training_sessions.id', 'meetings.session_id');
      if (p.course_id !== undefined) query = query.where('training_sessions.course_id', '=', p.course_id);
      if (p.session_id !== undefined) query = query.where('meetings.session_id', '=', p.session_id);
      if (p.from !== undefined) query = query.where('meetings.held_on', '>=', p.from);
      if (p.to !== undefined) query = query.where('meetings.held_on', '<=', p.to);
      return counted(query as never);
    },
  },
  session_capacity: {
    title: 'Session capacity and waitlist',
    description: 'Every session with its seats, confirmed and waitlisted counts, free seats and workflow state.',
    expiryDays: 3,
    parameters: ['course_id', 'status'],
    columns: [
      { key: 'id', header: 'session_id' },
      { key: 'course', header: 'course' },
      { key: 'name', header: 'session_name' },
      { key: 'workflow_state', header: 'workflow_state' },
      { key: 'starts_on', header: 'starts_on' },
      { key: 'max_participants', header: 'seats' },
      { key: 'confirmed_count', header: 'confirmed' },
      { key: 'waitlisted_count', header: 'waitlisted' },
      { key: 'available_seats', header: 'available_seats' },
    ],
    page: (db, p, afterId, upTo) => {
      let query = db
        .selectFrom('training_sessions')
        .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
        .select([
          'training_sessions.id',
          'courses.slug as course',
          'training_sessions.name',
          'training_sessions.workflow_state',
          'training_sessions.starts_on',
          'training_sessions.max_participants',
          'training_sessions.confirmed_count',
          'training_sessions.waitlisted_count',
          sql<number>`case when training_sessions.max_participants > training_sessions.confirmed_count then training_sessions.max_participants - training_sessions.confirmed_count else 0 end`.as(
            'available_seats',
          ),
        ]);
      if (p.course_id !== undefined) query = query.where('training_sessions.course_id', '=', p.course_id);
      if (p.status !== undefined) query = query.where('training_sessions.workflow_state', '=', p.status);
      return query.where('training_sessions.id', '>', afterId).where('training_sessions.id', '<=', upTo).orderBy('training_sessions.id');
    },
    lastId: (db) => lastId(db, 'training_sessions'),
    count: (db, p) => {
      let query = db.selectFrom('training_sessions');
      if (p.course_id !== undefined) query = query.where('training_sessions.course_id', '=', p.course_id);
      if (p.status !== undefined) query = query.where('training_sessions.workflow_state', '=', p.status);
      return counted(query as never);
    },
  },
};
