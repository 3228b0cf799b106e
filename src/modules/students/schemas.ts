import { type Static, Type } from 'typebox';
import { ListQuery } from '../../http/list.ts';
import { StringEnum } from '../../http/schemas.ts';
import { PersonEmail, PersonName } from '../users/schemas.ts';

const Timestamp = (description: string) => Type.String({ format: 'date-time', description });

export const STUDENT_STATUSES = ['verified', 'unverified'] as const;
export type StudentStatus = (typeof STUDENT_STATUSES)[number];

/**
 * A student: a user with at least one course application who is not staff. Students and staff share
 * one id space (the users table); a staff user's id is a 404 here.
 */
export const Student = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String({ description: 'Full name.' }),
    // Not `format: email`, for the reason given on User.email.
    email: Type.String({
      description:
        'Stored trimmed, lowercased and NFC-normalised; unique in that form across students and staff. Checked as a staff ' +
        'user’s email is (`UserCreate.email`), so not always of the strict `email` format.',
    }),
    email_verified: Type.Boolean({ description: 'Whether the student has confirmed the email address (the `status` filter).' }),
    courses: Type.Array(Type.String(), {
      description: 'Slugs of the courses the student has applied to, in alphabetical order (at least one).',
    }),
    created_at: Timestamp('When the user was created.'),
    updated_at: Timestamp('Last change of the student, including a new course application.'),
  },
  { $id: 'Student' },
);
export type Student = Static<typeof Student>;

/**
 * `academy admin students create`: a user who becomes a student with a first course application.
 * Checked as a staff user's name and email are (`UserCreate`). Not part of the API.
 */
export const StudentCreate = Type.Object(
  {
    name: PersonName,
    email: PersonEmail,
    email_verified: Type.Optional(Type.Boolean({ default: false, description: 'Whether the address is confirmed already.' })),
  },
  { additionalProperties: false },
);
export type StudentCreate = Static<typeof StudentCreate>;

export const STUDENT_SORTS = ['id', 'name', 'email', 'created_at', 'updated_at'] as const;
export type StudentSort = (typeof STUDENT_SORTS)[number];

export const StudentListQuery = ListQuery({
  sort: STUDENT_SORTS,
  filters: {
    search: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Case-insensitive text that the name or the email contains; blank matches every student.',
      }),
    ),
    status: Type.Optional(StringEnum(STUDENT_STATUSES, { description: 'Email verification: `verified` or `unverified` students only.' })),
  },
});
