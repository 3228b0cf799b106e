import { Type } from 'typebox';
import { PageQuery } from '../../http/pagination.ts';
import { Nullable } from '../../http/schemas.ts';
import { MESSAGE_STATUSES } from './service.ts';

const Timestamp = Type.String({ format: 'date-time' });

export const EventEnvelope = Type.Object(
  {
    id: Type.String({ description: 'The event id; also sent as the `Academy-Event-Id` header.' }),
    type: Type.String({ description: 'The event type, e.g. `enrollment.created`.' }),
    version: Type.String({ description: 'Version of the envelope and payload shape.' }),
    occurred_at: Timestamp,
    payload: Type.Object({}, { additionalProperties: true, description: 'The event-specific data.' }),
  },
  { $id: 'EventEnvelope', description: 'The JSON body POSTed to the integration.' },
);

export const IntegrationMessage = Type.Object(
  {
    id: Type.Integer(),
    integration_key: Type.String(),
    event_id: Nullable(Type.String()),
    event_type: Type.String(),
    status: Type.Union(
      MESSAGE_STATUSES.map((s) => Type.Literal(s)),
      {
        description:
          '`queued` (waiting for its next attempt), `delivering` (an attempt is under way), `delivered` (the integration answered 2xx), `failed` (every attempt failed; may be retried).',
      },
    ),
    attempts: Type.Integer({ description: 'Attempts made in the current series (a retry starts a new series).' }),
    max_attempts: Type.Integer({ description: 'Attempts per series before the message fails.' }),
    last_status_code: Nullable(Type.Integer({ description: 'HTTP status of the last answer; null when none was received.' })),
    last_error: Nullable(Type.String()),
    payload: Type.Ref('EventEnvelope'),
    delivered_at: Nullable(Timestamp),
    failed_at: Nullable(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'IntegrationMessage' },
);

export const MessageListQuery = Type.Object({
  ...PageQuery,
  integration_key: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only messages of this integration.' })),
  status: Type.Optional(
    Type.Union(
      MESSAGE_STATUSES.map((s) => Type.Literal(s)),
      { description: 'Only messages in this status.' },
    ),
  ),
});
