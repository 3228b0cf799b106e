import type { Static } from 'typebox';
import type { Document, DocumentPatch } from './schemas.ts';

const document: Static<typeof Document> = {
  id: 12,
  type: 'employment_letter',
  status: 'available',
  title: 'Employment letter, Contoso Ltd',
  filename: 'employment-letter-contoso.pdf',
  media_type: 'application/pdf',
  size: 184320,
  sha256: '9f2c4e8a1b7d3f60c5e2a9b8d7c6f5e4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8',
  student_id: 30,
  supersedes_id: null,
  superseded_by_id: null,
  failure_reason: null,
  download_path: '/api/v1/documents/12/download',
  available_at: '2026-09-04T11:02:17.441Z',
  archived_at: null,
  deleted_at: null,
  created_at: '2026-09-04T11:02:16.903Z',
  updated_at: '2026-09-04T11:02:17.441Z',
};

const documentPatch: Static<typeof DocumentPatch> = { title: 'Employment letter, Contoso Ltd (signed)' };

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples): the shape the API really sends, from the demo academy (Northwind Training
 * Academy, GBP, Europe/London). Each is typed as its schema, so one that no longer fits fails the typecheck.
 */
export const examples = {
  Document: document,
  DocumentPatch: documentPatch,
};
