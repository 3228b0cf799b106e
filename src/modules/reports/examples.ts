import type { Static } from 'typebox';
import type { Report, ReportRequest } from './schemas.ts';

const report: Static<typeof Report> = {
  id: 6,
  type: 'enrolments',
  format: 'csv',
  status: 'available',
  parameters: { from: '2026-11-01', to: '2026-11-23' },
  progress: 100,
  row_count: 212,
  size: 28415,
  sha256: '3b1f7c0e9d2a4b6c8e0f1a3c5e7092b4d6f8a0c2e4f6a8b0d2c4e6f8a0b2c4d6',
  failure_reason: null,
  download_path: '/api/v1/reports/6/download',
  generated_at: '2026-11-23T16:20:04.228Z',
  available_at: '2026-11-23T16:20:04.377Z',
  expires_at: '2026-11-30T16:20:04.377Z',
  expired_at: null,
  failed_at: null,
  created_at: '2026-11-23T16:20:01.950Z',
  updated_at: '2026-11-23T16:20:04.377Z',
};

const reportRequest: Static<typeof ReportRequest> = {
  type: 'enrolments',
  format: 'csv',
  parameters: { from: '2026-11-01', to: '2026-11-23' },
};

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples): the shape the API really sends, from the demo academy (Northwind Training
 * Academy, GBP, Europe/London). Each is typed as its schema, so one that no longer fits fails the typecheck.
 */
export const examples = {
  Report: report,
  ReportRequest: reportRequest,
};
