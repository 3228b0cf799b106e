import type { Static } from 'typebox';
import type { Certificate, CertificateVerification } from './schemas.ts';

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

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples): the shape the API really sends, from the demo academy (Northwind Training
 * Academy, GBP, Europe/London). Each is typed as its schema, so one that no longer fits fails the typecheck.
 */
export const examples = {
  Certificate: certificate,
  CertificateVerification: verification,
};
