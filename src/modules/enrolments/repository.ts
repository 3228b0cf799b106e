import {
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type Kysely,
  type Selectable,
  type SqlBool,
  sql,
  type Updateable,
} from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { builtOnce, type ListColumns, type ListRequest, listPage, type Page, rowsById } from '../../db/list.ts';
import type { DB, EnrolmentTable } from '../../db/schema.ts';
import { keptTotals } from '../../db/totals.ts';
import { studentExists } from '../students/repository.ts';
import type { EnrolmentSort, EnrolmentStatus } from './schemas.ts';

/** An enrolment as stored, with the course of its session. */
export type EnrolmentRow = Selectable<EnrolmentTable> & { course_id: number };

export interface EnrolmentFilter {
  studentId?: number | undefined;
  courseId?: number | undefined;
  sessionId?: number | undefined;
  status?: EnrolmentStatus | undefined;
}

/** The session counter that holds the number of enrolments in each status that has one. */
const COUNTERS = { confirmed: 'confirmed_count', waitlisted: 'waitlisted_count' } as const;

/** The session counter of a status, if it has one. */
const counterOf = (status: EnrolmentStatus | undefined) =>
  status === 'confirmed' || status === 'waitlisted' ? COUNTERS[status] : undefined;

const sessionsOf = (eb: ExpressionBuilder<DB, 'enrolments'>, courseId: number) =>
  eb.selectFrom('training_sessions').select('training_sessions.id').where('training_sessions.course_id', '=', courseId);

const ENROLMENT_COLUMNS = [
  'enrolments.id',
  'enrolments.user_id',
  'enrolments.session_id',
  'enrolments.status',
  'enrolments.waitlist_position',
  'enrolments.confirmed_at',
  'enrolments.cancelled_at',
  'enrolments.cancellation_reason',
  'enrolments.completion_outcome',
  'enrolments.completion_notes',
  'enrolments.completion_recorded_at',
  'enrolments.created_at',
  'enrolments.updated_at',
] as const satisfies readonly `enrolments.${keyof EnrolmentTable}`[];

const ENROLMENT_LIST_COLUMNS: ListColumns<EnrolmentSort> = {
  sort: { id: 'enrolments.id', created_at: 'enrolments.created_at', updated_at: 'enrolments.updated_at' },
  id: 'enrolments.id',
  updatedAt: 'enrolments.updated_at',
};

export function createEnrolmentRepository(db: Kysely<DB>, dialect: Dialect) {
  /**
   * How many enrolments are confirmed (or waitlisted) in every session, a course's sessions or one
   * session: the sum of the counters that every enrolment change keeps on its session in the same
   * transaction. Adding up 5,000 counters is a hundred times cheaper than counting 500,000 rows.
   */
  const counterTotal = (column: (typeof COUNTERS)[keyof typeof COUNTERS], courseId?: number, sessionId?: number) => {
    // Only sessions with such enrolments add to the sum: the condition lets the partial index of
    // waitlists (migration 0016) answer `waitlisted` from the few sessions that have one.
    let query = db
      .selectFrom('training_sessions')
      .select(sql<number | string | null>`sum(${sql.ref(column)})`.as('total'))
      .where(sql<SqlBool>`${sql.ref(column)} > 0`);
    if (courseId !== undefined) query = query.where('course_id', '=', courseId);
    if (sessionId !== undefined) query = query.where('id', '=', sessionId);
    return query;
  };

  // Named columns rather than `enrolments.*`: a prepared list statement must keep its result type
  // when a later migration adds a column (PostgreSQL refuses to run it otherwise).
  const withCourse = (executor: Kysely<DB>) =>
    executor
      .selectFrom('enrolments')
      .innerJoin('training_sessions', 'training_sessions.id', 'enrolments.session_id')
      .select(ENROLMENT_COLUMNS)
      .select('training_sessions.course_id');

  /** A list's statements, built once per filter (`builtOnce`). */
  const built = builtOnce<ReturnType<typeof buildStatements>>();
  /** `fromCounters`: the sessions' counter of the status gives the total. */
  function buildStatements(filter: EnrolmentFilter, fromCounters: boolean) {
    // On the enrolments' own columns, so that the total is counted without the join.
    const filters = (eb: ExpressionBuilder<DB, 'enrolments'>) => {
      const conditions: Expression<SqlBool>[] = [];
      if (filter.studentId !== undefined) conditions.push(eb('enrolments.user_id', '=', filter.studentId));
      if (filter.courseId !== undefined) conditions.push(eb('enrolments.session_id', 'in', sessionsOf(eb, filter.courseId)));
      if (filter.sessionId !== undefined) conditions.push(eb('enrolments.session_id', '=', filter.sessionId));
      // The status as a literal: each status is its own statement with its own plan (a few are
      // waitlisted, most confirmed), so the statements can be prepared below.
      if (filter.status !== undefined) conditions.push(eb('enrolments.status', '=', sql.lit(filter.status)));
      return eb.and(conditions);
    };
    const counter = counterOf(filter.status);
    const matching = db.selectFrom('enrolments').where(filters);
    return {
      rows: withCourse(db).where(filters),
      // PostgreSQL, a course's enrolments: read through its sessions, then ordered. Given the whole
      // table's order instead, PostgreSQL walked the index of `created_at` and tested every
      // enrolment against the course's sessions, expecting a page's worth early; a course's
      // enrolments lie together in time, so a first page read millions of rows (15 s, the statement
      // timeout, at five million enrolments). The subquery with OFFSET 0 is planned on its own.
      window:
        dialect === 'postgres' && filter.courseId !== undefined
          ? db
              .selectFrom(matching.select(['enrolments.id', 'enrolments.created_at', 'enrolments.updated_at']).offset(0).as('enrolments'))
              .select('enrolments.id')
          : matching.select('enrolments.id'),
      // What the kept pages are named by, and (unless the counters give the total) what is counted.
      count: matching,
      total: fromCounters && counter !== undefined ? counterTotal(counter, filter.courseId, filter.sessionId) : undefined,
    };
  }

  return {
    list: async (filter: EnrolmentFilter, list: ListRequest<EnrolmentSort>): Promise<Page<EnrolmentRow>> => {
      const fromCounters = counterOf(filter.status) !== undefined && filter.studentId === undefined && list.updatedSince === undefined;
      // The statements are built from the key's values only: a filter field left out of the key cannot reach them.
      const { studentId, courseId, sessionId, status } = filter;
      const key = `${studentId ?? ''}\u0000${courseId ?? ''}\u0000${sessionId ?? ''}\u0000${status ?? ''}\u0000${fromCounters}`;
      const statements = built(key, () => buildStatements({ studentId, courseId, sessionId, status }, fromCounters));
      // A student or a session holds a few enrolments: one plan serves every value of them. A
      // course holds from none to thousands, `updated_since` any share: planned each time.
      const onePlan = filter.courseId === undefined && list.updatedSince === undefined;
      // The window from the enrolments' own indexes (no join), then the page's rows with their course.
      const page = listPage(db, statements.window, list, ENROLMENT_LIST_COLUMNS, {
        decorate: rowsById(statements.rows, list, ENROLMENT_LIST_COLUMNS),
        count: statements.count,
        ...(statements.total ? { total: statements.total } : {}),
        prepared: onePlan,
        // Read far more often than written: a page is read again only after a write (ADR 0017).
        kept: keptTotals(db, dialect),
      });
      // The rows are those of `statements.rows`, which `decorate` read.
      return page as unknown as Promise<Page<EnrolmentRow>>;
    },

    findById: async (id: number, executor: Kysely<DB> = db): Promise<EnrolmentRow | undefined> =>
      withCourse(executor).where('enrolments.id', '=', id).executeTakeFirst(),

    /** The student's enrolment in the session that is not cancelled, if any (there is at most one). */
    live: async (trx: Kysely<DB>, userId: number, sessionId: number): Promise<Selectable<EnrolmentTable> | undefined> =>
      trx
        .selectFrom('enrolments')
        .selectAll()
        .where('user_id', '=', userId)
        .where('session_id', '=', sessionId)
        .where('status', '<>', 'cancelled')
        .executeTakeFirst(),

    insert: async (trx: Kysely<DB>, values: Insertable<EnrolmentTable>): Promise<number> =>
      (await trx.insertInto('enrolments').values(values).returning('id').executeTakeFirstOrThrow()).id,

    update: async (trx: Kysely<DB>, id: number, values: Updateable<EnrolmentTable>): Promise<void> => {
      await trx.updateTable('enrolments').set(values).where('id', '=', id).execute();
    },

    /** A session's waitlist, first in line first. */
    waitlist: async (trx: Kysely<DB>, sessionId: number): Promise<Pick<Selectable<EnrolmentTable>, 'id' | 'waitlist_position'>[]> =>
      trx
        .selectFrom('enrolments')
        .select(['id', 'waitlist_position'])
        .where('session_id', '=', sessionId)
        .where('status', '=', 'waitlisted')
        .orderBy('waitlist_position')
        .orderBy('id')
        .execute(),

    /** Whether the user is a student: has a course application and is not staff. */
    isStudent: async (userId: number, executor: Kysely<DB> = db): Promise<boolean> => studentExists(executor, userId),
  };
}

export type EnrolmentRepository = ReturnType<typeof createEnrolmentRepository>;
