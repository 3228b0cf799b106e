import type { Static } from 'typebox';
import type { AuditEvent } from './schemas.ts';

const auditEvent: Static<typeof AuditEvent> = {
  id: 48213,
  occurred_at: '2026-03-02T10:15:04.118Z',
  actor_type: 'token',
  actor_id: 7,
  actor_name: 'crm-sync (for Priya Shah)',
  action: 'enrolment.cancelled',
  subject_type: 'enrolment',
  subject_id: 1042,
  via: 'api',
  request_id: 'f3b9c2d4-6a1e-4c57-9d2b-7e8f0a1b2c3d',
  ip: '203.0.113.24',
  changes: {
    status: ['confirmed', 'cancelled'],
    cancelled_at: [null, '2026-03-02T10:15:04.118Z'],
    cancellation_reason: [null, 'Moved to the April intake'],
  },
};

/**
 * An example of each of the module's named schemas, by `$id`, for the OpenAPI document
 * (AcademyModule.examples), from the demo academy. Each is typed as its schema, so one that no longer
 * fits fails the typecheck.
 */
export const examples = {
  AuditEvent: auditEvent,
};
