import { type Static, Type } from 'typebox';
import { ListQuery } from '../../http/list.ts';
import { Nullable, Ref, StringEnum } from '../../http/schemas.ts';

export const MESSAGE_STATUSES = ['queued', 'delivering', 'delivered', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

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
    status: StringEnum(MESSAGE_STATUSES, {
      description:
        '`queued` (waiting for its next attempt), `delivering` (an attempt is under way), `delivered` (the integration answered 2xx), `failed` (every attempt failed; may be retried).',
    }),
    attempts: Type.Integer({ description: 'Attempts made in the current series (a retry starts a new series).' }),
    max_attempts: Type.Integer({ description: 'Attempts per series before the message fails.' }),
    last_status_code: Nullable(Type.Integer({ description: 'HTTP status of the last answer; null when none was received.' })),
    last_error: Nullable(Type.String()),
    payload: Ref(EventEnvelope),
    delivered_at: Nullable(Timestamp),
    failed_at: Nullable(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'IntegrationMessage' },
);

export type IntegrationMessage = Static<typeof IntegrationMessage>;

export const MESSAGE_SORTS = ['id', 'created_at'] as const;
export type MessageSort = (typeof MESSAGE_SORTS)[number];

export const MessageListQuery = ListQuery({
  sort: MESSAGE_SORTS,
  filters: {
    integration_key: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only messages of this integration.' })),
    status: Type.Optional(StringEnum(MESSAGE_STATUSES, { description: 'Only messages in this status.' })),
  },
});

/** An outbound integration endpoint as the operator sees it (`academy admin integrations list`). */
export const Integration = Type.Object(
  {
    id: Type.Integer(),
    key: Type.String(),
    name: Type.String(),
    url: Type.String(),
    events: Nullable(Type.Array(Type.String(), { description: 'Event types sent; null for every webhook event type.' })),
    auth_header: Nullable(Type.String({ description: 'Masked: the value is never shown again after creation.' })),
    enabled: Type.Boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Integration' },
);
export type Integration = Static<typeof Integration>;
