import { type Static, Type } from 'typebox';
import { ListQuery } from '../../http/list.ts';
import { Nullable, StringEnum, Timestamp } from '../../http/schemas.ts';
import { AUDIT_ACTOR_TYPES, AUDIT_VIAS, type AuditChanges } from '../../platform/audit.ts';

/** `{"field": [before, after]}`: what the change did to each field it changed. */
const Changes = Type.Unsafe<AuditChanges>({
  type: 'object',
  description:
    'What changed, field by field: `{"name": ["Old name", "New name"]}`; a created record has `null` before each field, a ' +
    'deleted one `null` after. Secrets (signing secrets, credentials, password hashes, tokens) are never shown, not even ' +
    'as a placeholder: their fields are left out. Null when the change has nothing to show field by field.',
  additionalProperties: {
    type: 'array',
    minItems: 2,
    maxItems: 2,
    items: {},
    description: 'The value before and the value after, as the API shows them (null for none).',
  },
});

export const AuditEvent = Type.Object(
  {
    id: Type.Integer({ description: 'Increases with every event: the order events were recorded in.' }),
    occurred_at: Timestamp('When the change was made; it was committed with its event, in one transaction.'),
    actor_type: StringEnum(AUDIT_ACTOR_TYPES, {
      description:
        'Who made the change: `token` (an API token, also one that acts for a user), `user` (a staff user in the console, or ' +
        '`academy admin --as`), `operator` (the `academy` command line) or `system` (jobs and scheduled tasks, and what follows ' +
        'from a change by itself, such as a waitlisted enrolment promoted to a freed seat).',
    }),
    actor_id: Nullable(Type.Integer({ description: 'The token’s or the user’s id; null for the operator and the system.' })),
    actor_name: Nullable(
      Type.String({
        description: 'The token’s name (with the user it acts for: `ci-sync (for Ada Lovelace)`), the user’s name, `operator` or `system`.',
      }),
    ),
    action: Type.String({
      description:
        '`<resource>.<verb>`, e.g. `course.created`, `course.transitioned`, `enrolment.cancelled`, `user.suspended`, ' +
        '`token.created`, `organization.updated`.',
    }),
    subject_type: Type.String({ description: 'The kind of record changed: `course`, `enrolment`, `user`, `token`, `organization`…' }),
    subject_id: Nullable(Type.Integer({ description: 'Its id; null for a change without one record (a batch of an import).' })),
    via: StringEnum(AUDIT_VIAS, {
      description: 'Where the change was asked for: `api`, `console`, `cli` (`academy admin` and the other commands) or `job`.',
    }),
    request_id: Nullable(
      Type.String({
        description:
          'The `X-Request-Id` of the request that made the change, or that queued the job that made it; null on the command line.',
      }),
    ),
    ip: Nullable(Type.String({ description: 'The client’s address (API and console requests); null otherwise.' })),
    changes: Nullable(Changes),
  },
  { $id: 'AuditEvent' },
);
export type AuditEvent = Static<typeof AuditEvent>;

export const AUDIT_SORTS = ['id', 'occurred_at'] as const;
export type AuditSort = (typeof AUDIT_SORTS)[number];

export const AuditEventListQuery = ListQuery({
  sort: AUDIT_SORTS,
  defaultDirection: 'desc',
  filters: {
    actor_type: Type.Optional(StringEnum(AUDIT_ACTOR_TYPES, { description: 'Only changes by this kind of actor.' })),
    actor_id: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Only changes by this token or user (with `actor_type`).' }),
    ),
    action: Type.Optional(Type.String({ maxLength: 100, description: 'Only this action, e.g. `enrolment.cancelled`.' })),
    subject_type: Type.Optional(Type.String({ maxLength: 100, description: 'Only changes of this kind of record, e.g. `course`.' })),
    subject_id: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Only changes of the record with this id (with `subject_type`).' }),
    ),
    since: Type.Optional(Type.String({ format: 'date-time', description: 'Only changes made at or after this RFC 3339 time.' })),
  },
});
