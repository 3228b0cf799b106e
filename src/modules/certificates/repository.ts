import type { Expression, ExpressionBuilder, Kysely, Selectable, SqlBool } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { builtOnce, type ListColumns, type ListRequest, listPage, type Page } from '../../db/list.ts';
import type { CertificateTable, DB } from '../../db/schema.ts';
import { keptTotals } from '../../db/totals.ts';
import type { CertificateSort, CertificateStatus } from './schemas.ts';

/** A certificate row with its course's slug. */
export type CertificateRow = Selectable<CertificateTable> & { course: string };

export interface CertificateFilter {
  studentId?: number | undefined;
  courseId?: number | undefined;
  status?: CertificateStatus | undefined;
}

/** What public verification shows, and the stored token to compare with. */
export interface VerificationRow {
  verification_token: string;
  holder_name: string;
  course_title: string;
  status: string;
  issued_at: string;
  revoked_at: string | null;
}

/** An enrolment as issuing a certificate needs it (the enrolments table is the enrolment module's). */
export interface EnrolmentFacts {
  id: number;
  user_id: number;
  session_id: number;
  course_id: number;
  status: string;
  completion_outcome: string | null;
}

export interface NewCertificate {
  enrolment_id: number;
  user_id: number;
  course_id: number;
  session_id: number;
  certificate_number: string;
  verification_token: string;
  issued_at: string;
}

const CERTIFICATE_COLUMNS = [
  'certificates.id',
  'certificates.enrolment_id',
  'certificates.user_id',
  'certificates.course_id',
  'certificates.session_id',
  'certificates.certificate_number',
  'certificates.verification_token',
  'certificates.status',
  'certificates.issued_at',
  'certificates.revoked_at',
  'certificates.revocation_reason',
  'certificates.created_at',
  'certificates.updated_at',
] as const;

const CERTIFICATE_LIST_COLUMNS: ListColumns<CertificateSort> = {
  sort: {
    id: 'certificates.id',
    issued_at: 'certificates.issued_at',
    certificate_number: 'certificates.certificate_number',
    updated_at: 'certificates.updated_at',
  },
  id: 'certificates.id',
  updatedAt: 'certificates.updated_at',
};

export function createCertificateRepository(db: Kysely<DB>, dialect: Dialect) {
  const withCourse = (executor: Kysely<DB>) =>
    executor
      .selectFrom('certificates')
      .innerJoin('courses', 'courses.id', 'certificates.course_id')
      .select([...CERTIFICATE_COLUMNS, 'courses.slug as course']);

  /** A list's statements, built once per filter (`builtOnce`). */
  const built = builtOnce<ReturnType<typeof buildStatements>>();
  function buildStatements(filter: CertificateFilter) {
    const filters = (eb: ExpressionBuilder<DB, 'certificates'>) => {
      const conditions: Expression<SqlBool>[] = [];
      if (filter.studentId !== undefined) conditions.push(eb('certificates.user_id', '=', filter.studentId));
      if (filter.courseId !== undefined) conditions.push(eb('certificates.course_id', '=', filter.courseId));
      if (filter.status !== undefined) conditions.push(eb('certificates.status', '=', filter.status));
      return eb.and(conditions);
    };
    return {
      rows: withCourse(db).where(filters),
      // Every certificate has its course (a foreign key): the total needs no join.
      count: db.selectFrom('certificates').where(filters),
    };
  }

  return {
    list: async (filter: CertificateFilter, list: ListRequest<CertificateSort>): Promise<Page<CertificateRow>> => {
      // The statements are built from the key's values only: a filter field left out of the key cannot reach them.
      const { studentId, courseId, status } = filter;
      const key = `${studentId ?? ''}\u0000${courseId ?? ''}\u0000${status ?? ''}`;
      const statements = built(key, () => buildStatements({ studentId, courseId, status }));
      // A student holds a few certificates, so one plan serves every student; a course holds from none
      // to thousands, a status most or few, `updated_since` any share: those are planned each time.
      const onePlan = filter.courseId === undefined && filter.status === undefined && list.updatedSince === undefined;
      // Read far more often than written: a page is read again only after a write (ADR 0017).
      return listPage(db, statements.rows, list, CERTIFICATE_LIST_COLUMNS, {
        count: statements.count,
        prepared: onePlan,
        kept: keptTotals(db, dialect),
      });
    },

    findById: async (id: number, executor: Kysely<DB> = db): Promise<CertificateRow | undefined> =>
      withCourse(executor).where('certificates.id', '=', id).executeTakeFirst(),

    findByEnrolment: async (
      executor: Kysely<DB>,
      enrolmentId: number,
    ): Promise<Pick<CertificateRow, 'id' | 'certificate_number'> | undefined> =>
      executor.selectFrom('certificates').select(['id', 'certificate_number']).where('enrolment_id', '=', enrolmentId).executeTakeFirst(),

    /** One lookup through the unique index of the token column; see the service for why that is safe. */
    findForVerification: async (token: string): Promise<VerificationRow | undefined> =>
      db
        .selectFrom('certificates')
        .innerJoin('users', 'users.id', 'certificates.user_id')
        .innerJoin('courses', 'courses.id', 'certificates.course_id')
        .select([
          'certificates.verification_token',
          'users.name as holder_name',
          'courses.title as course_title',
          'certificates.status',
          'certificates.issued_at',
          'certificates.revoked_at',
        ])
        .where('certificates.verification_token', '=', token)
        .executeTakeFirst(),

    findEnrolment: async (executor: Kysely<DB>, id: number): Promise<EnrolmentFacts | undefined> =>
      executor
        .selectFrom('enrolments')
        .innerJoin('training_sessions', 'training_sessions.id', 'enrolments.session_id')
        .select([
          'enrolments.id',
          'enrolments.user_id',
          'enrolments.session_id',
          'training_sessions.course_id',
          'enrolments.status',
          'enrolments.completion_outcome',
        ])
        .where('enrolments.id', '=', id)
        .executeTakeFirst(),

    insert: async (trx: Kysely<DB>, values: NewCertificate): Promise<number> => {
      const row = await trx
        .insertInto('certificates')
        .values({
          ...values,
          status: 'valid',
          revoked_at: null,
          revocation_reason: null,
          created_at: values.issued_at,
          updated_at: values.issued_at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    setNumber: async (trx: Kysely<DB>, id: number, certificateNumber: string): Promise<void> => {
      await trx.updateTable('certificates').set({ certificate_number: certificateNumber }).where('id', '=', id).execute();
    },
  };
}

export type CertificateRepository = ReturnType<typeof createCertificateRepository>;
