import { type Static, Type } from 'typebox';
import { StringEnum } from '../../http/schemas.ts';
import { PersonEmail, PersonName } from '../users/schemas.ts';

export const APPLICATION_SOURCES = ['admin', 'import'] as const;

/**
 * A course application: what makes a user a student. The API shows applications only through the
 * student's `courses`; this is the record the administration prints.
 */
export const CourseApplication = Type.Object(
  {
    id: Type.Integer(),
    student_id: Type.Integer(),
    course_id: Type.Integer(),
    course: Type.String({ description: 'Slug of the course.' }),
    source: StringEnum(APPLICATION_SOURCES, { description: '`admin` (applications create) or `import` (a CSV import).' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'CourseApplication' },
);
export type CourseApplication = Static<typeof CourseApplication>;

/** What an import did, or with `--dry-run` would do. */
export interface ImportSummary {
  dry_run: boolean;
  /** Data rows in the file. */
  rows: number;
  students_created: number;
  /** Distinct emails that matched an existing user (left unchanged). */
  students_existing: number;
  applications_created: number;
  /** Rows whose student already had an application to the course. */
  applications_existing: number;
  /** Rows that repeat an earlier row's email and course. */
  duplicate_rows: number;
}

/** One problem of an import file, by line (1 is the header). */
export interface RowError {
  line: number;
  field: string | null;
  message: string;
}

/** A course named by its slug; any letter case (the service lowercases it). */
const CourseSlug = Type.String({
  pattern: '^[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*$',
  'x-message': 'must be a course slug, e.g. python-basics',
});

/** `academy admin applications create`: a student's application to a course. Not part of the API. */
export const ApplicationCreate = Type.Object(
  {
    student_id: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'A user created with `students create`.' }),
    course: CourseSlug,
  },
  { additionalProperties: false },
);
export type ApplicationCreate = Static<typeof ApplicationCreate>;

/**
 * One data row of an import file, as its cells read (the course and email_verified trimmed and
 * lowercased by the reader): a student (`StudentCreate`'s rules) and a course.
 */
export const ImportRowInput = Type.Object(
  {
    name: PersonName,
    email: PersonEmail,
    course: CourseSlug,
    email_verified: Type.String({
      pattern: '^(?:true|1|yes|false|0|no|)$',
      'x-message': 'must be true or false (1/0, yes/no), or empty for false',
    }),
  },
  { additionalProperties: false },
);
export type ImportRowInput = Static<typeof ImportRowInput>;
