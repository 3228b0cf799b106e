import { type Static, Type } from 'typebox';
import { ListQuery } from '../../http/list.ts';
import { Nullable, StringEnum } from '../../http/schemas.ts';
import { Text } from '../../platform/validation.ts';

const Timestamp = (description: string) => Type.String({ format: 'date-time', description });

export const CERTIFICATE_STATUSES = ['valid', 'revoked'] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

const STATUS = StringEnum(CERTIFICATE_STATUSES, { description: '`valid` until the certificate is revoked; revocation is final.' });

/** A certificate as authorised readers see it (certificates:read), including its verification token. */
export const Certificate = Type.Object(
  {
    id: Type.Integer(),
    certificate_number: Type.String({
      description: 'Human-facing number, `CERT-<year of issue>-<sequence>` (e.g. `CERT-2026-000123`). Never accepted by verification.',
    }),
    verification_token: Type.String({
      description:
        'Opaque, URL-safe token of 192 random bits: the holder shares `/api/v1/certificates/verify/{verification_token}` ' +
        'so that anyone can check the certificate. Treat it like a link that must not be guessable.',
    }),
    status: STATUS,
    student_id: Type.Integer({ description: 'The holder (a student).' }),
    course_id: Type.Integer(),
    course: Type.String({ description: 'Slug of the course.' }),
    session_id: Type.Integer({ description: 'The training session (intake) the holder completed.' }),
    enrolment_id: Type.Integer({ description: 'The confirmed enrolment, completed as `passed`, that earned the certificate.' }),
    issued_at: Timestamp('When the certificate was issued.'),
    revoked_at: Nullable(Timestamp('When the certificate was revoked; null while valid.')),
    revocation_reason: Nullable(Type.String({ description: 'Why it was revoked, as the administration recorded it.' })),
    created_at: Timestamp('Creation time.'),
    updated_at: Timestamp('Last change (issue or revocation).'),
  },
  { $id: 'Certificate' },
);
export type Certificate = Static<typeof Certificate>;

/** What public verification tells anyone holding the token: public facts only. */
export const CertificateVerification = Type.Object(
  {
    holder_name: Type.String({ description: 'Name of the certificate holder.' }),
    course_title: Type.String({ description: 'Title of the course.' }),
    issued_on: Type.String({ format: 'date', description: 'Date of issue (UTC), YYYY-MM-DD.' }),
    status: STATUS,
    revoked_at: Nullable(Timestamp('When the certificate was revoked; null while valid.')),
  },
  { $id: 'CertificateVerification' },
);
export type CertificateVerification = Static<typeof CertificateVerification>;

export const CERTIFICATE_SORTS = ['id', 'issued_at', 'certificate_number', 'updated_at'] as const;
export type CertificateSort = (typeof CERTIFICATE_SORTS)[number];

const PositiveId = (description: string) => Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description }));

export const CertificateListQuery = ListQuery({
  sort: CERTIFICATE_SORTS,
  filters: {
    student_id: PositiveId('Only certificates of this student.'),
    course_id: PositiveId('Only certificates of this course (the course of the session the holder completed).'),
    status: Type.Optional(StringEnum(CERTIFICATE_STATUSES, { description: 'Only `valid` or only `revoked` certificates.' })),
  },
});

/** `academy admin certificates issue`. Not part of the API (certificates are issued in the administration). */
export const CertificateIssue = Type.Object(
  {
    enrolment_id: Type.Integer({
      minimum: 1,
      maximum: 2147483647,
      description: 'A confirmed enrolment whose completion is recorded as passed.',
    }),
  },
  { additionalProperties: false },
);
export type CertificateIssue = Static<typeof CertificateIssue>;

/** `academy admin certificates revoke ID`. */
export const CertificateRevoke = Type.Object(
  { reason: Type.Optional(Nullable(Text(500, { description: 'Why, shown to nobody but the administration (trimmed).' }))) },
  { additionalProperties: false },
);
export type CertificateRevoke = Static<typeof CertificateRevoke>;
