import { type Static, Type } from 'typebox';
import { ListQuery } from '../../http/list.ts';
import { Nullable, Ref, StringEnum } from '../../http/schemas.ts';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../platform/events/types.ts';
import { Line } from '../../platform/validation.ts';

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

/** `academy admin integrations create`: an outbound endpoint. Not part of the API. */
export const IntegrationCreate = Type.Object(
  {
    key: Type.String({
      maxLength: 64,
      pattern: '^[a-z0-9]+(?:[-_][a-z0-9]+)*$',
      'x-message': 'must be a slug of lowercase letters, digits, "-" or "_", e.g. "crm"',
    }),
    name: Line(200),
    // Whether the host may be reached (a public address) is the service's to decide (src/platform/outbound.ts).
    url: Type.String({
      pattern: '^[Hh][Tt][Tt][Pp][Ss]?://\\S+$',
      'x-message': 'must be an http or https URL, e.g. https://crm.example.org/events',
    }),
    // A list or null as one type (not a union), so that a bad list is told once, without "must be null".
    events: Type.Optional(
      Type.Unsafe<WebhookEventType[] | null>({
        ...Type.Array(StringEnum(WEBHOOK_EVENT_TYPES), { minItems: 1 }),
        type: ['array', 'null'],
        description: 'Event types to send (repeats are dropped); omitted or null for every webhook event type.',
      }),
    ),
    auth_header: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 4096,
          // A line break would let the value inject further headers into every delivery.
          pattern: '^[^\\r\\n\\0]*[^\\s\\0][^\\r\\n\\0]*$',
          'x-message': 'must be a single-line header value, e.g. "Bearer xyz"',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);
export type IntegrationCreate = Static<typeof IntegrationCreate>;
