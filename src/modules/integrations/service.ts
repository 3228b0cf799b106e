import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Page, PageRequest } from '../../http/pagination.ts';
import type { Clock } from '../../platform/clock.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.ts';
import type { DomainEvent } from '../../platform/events/outbox.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import { type Outbound, outboundFor } from '../../platform/outbound.ts';
import type { Platform } from '../../platform/platform.ts';
import { checkEventTypes } from '../webhooks/service.ts';
import { createIntegrationRepository, type IntegrationRepository, type IntegrationRow, type MessageRow } from './repository.ts';

export const MESSAGE_STATUSES = ['queued', 'delivering', 'delivered', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * The message lifecycle as data: each move names the states it may start from. `start` also starts
 * from `delivering`, so that an attempt cut short by a crash is made again (at-least-once).
 */
export const MESSAGE_MOVES = {
  start: { from: ['queued', 'delivering'], to: 'delivering' },
  deliver: { from: ['delivering'], to: 'delivered' },
  requeue: { from: ['delivering'], to: 'queued' },
  fail: { from: ['queued', 'delivering'], to: 'failed' },
  retry: { from: ['failed'], to: 'queued' },
} as const satisfies Record<string, { from: readonly MessageStatus[]; to: MessageStatus }>;

/** Attempts per message (and again per manual retry). */
export const MESSAGE_MAX_ATTEMPTS = 5;

export interface IntegrationView {
  id: number;
  key: string;
  name: string;
  url: string;
  events: string[] | null;
  /** Masked: the value is never shown again after creation. */
  auth_header: string | null;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface MessageView {
  id: number;
  integration_key: string;
  event_id: string | null;
  event_type: string;
  status: MessageStatus;
  attempts: number;
  max_attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  payload: DomainEvent;
  delivered_at: string | null;
  failed_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Keeps the scheme ("Bearer") and at most the last four characters of a long credential. */
export function maskCredential(value: string): string {
  const space = value.indexOf(' ');
  const scheme = space > 0 ? value.slice(0, space + 1) : '';
  const secret = value.slice(scheme.length);
  return `${scheme}****${secret.length >= 16 ? secret.slice(-4) : ''}`;
}

function integrationView(row: IntegrationRow): IntegrationView {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    url: row.url,
    events: row.events === null ? null : (JSON.parse(row.events) as string[]),
    auth_header: row.auth_header === null ? null : maskCredential(row.auth_header),
    enabled: Boolean(row.enabled),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function messageView(row: MessageRow): MessageView {
  return {
    id: row.id,
    integration_key: row.integration_key,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status as MessageStatus,
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    payload: JSON.parse(row.payload) as DomainEvent,
    delivered_at: row.delivered_at,
    failed_at: row.failed_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const CREATE_FIELDS = ['key', 'name', 'url', 'events', 'auth_header'];
const KEY = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;

export interface MessageQuery {
  integration_key?: string | undefined;
  status?: MessageStatus | undefined;
}

export function createIntegrationService(deps: {
  db: Kysely<DB>;
  integrations: IntegrationRepository;
  queue: JobQueue;
  outbound: Outbound;
  clock: Clock;
}) {
  const { integrations, clock } = deps;

  return {
    /** Creates an integration endpoint from the operator's JSON (`academy admin integrations create`). */
    async create(data: Record<string, unknown>): Promise<IntegrationView> {
      const errors: Record<string, string[]> = {};
      const add = (field: string, message: string) => {
        errors[field] = [...(errors[field] ?? []), message];
      };
      for (const field of Object.keys(data)) {
        if (!CREATE_FIELDS.includes(field)) add(field, `The ${field} field is not recognised (known: ${CREATE_FIELDS.join(', ')}).`);
      }
      const { key, name, url, auth_header: authHeader } = data;
      if (typeof key !== 'string' || !KEY.test(key) || key.length > 64) {
        add('key', 'The key must be a slug of lowercase letters, digits, "-" or "_" (at most 64 characters), e.g. "crm".');
      } else if (await integrations.findIntegrationByKey(key)) {
        add('key', `An integration with the key "${key}" already exists.`);
      }
      if (typeof name !== 'string' || name.trim() === '' || name.length > 200)
        add('name', 'The name is required (at most 200 characters).');
      if (typeof url !== 'string') add('url', 'The url is required.');
      else {
        const problem = await deps.outbound.targetProblem(url.trim());
        if (problem) add('url', problem);
      }
      if (authHeader !== undefined && authHeader !== null) {
        // A line break would let the value inject further headers into every delivery.
        if (typeof authHeader !== 'string' || authHeader.trim() === '' || /[\r\n\0]/.test(authHeader) || authHeader.length > 4096) {
          add('auth_header', 'The auth_header must be a single-line header value, e.g. "Bearer xyz".');
        }
      }
      let events: string[] | null = null;
      try {
        events = checkEventTypes(data.events);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        for (const message of error.details?.events ?? []) add('events', message);
      }
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);

      const now = clock.now().toISOString();
      const row = await integrations.insertIntegration({
        key: key as string,
        name: (name as string).trim(),
        url: (url as string).trim(),
        events: events === null ? null : JSON.stringify(events),
        auth_header: typeof authHeader === 'string' ? authHeader.trim() : null,
        enabled: true,
        created_at: now,
        updated_at: now,
      });
      return integrationView(row);
    },

    /**
     * Stops (or resumes) deliveries to an integration (`academy admin integrations disable|enable`).
     * A disabled integration gets no new messages, its queued ones fail unsent, and its failed ones
     * cannot be retried until it is enabled again.
     */
    async setEnabled(key: string, enabled: boolean): Promise<IntegrationView> {
      const row = await integrations.setIntegrationEnabled(key, enabled, clock.now().toISOString());
      if (!row) throw new NotFoundError();
      return integrationView(row);
    },

    async listIntegrations(): Promise<IntegrationView[]> {
      return (await integrations.listIntegrations()).map(integrationView);
    },

    async listMessages(query: MessageQuery, page: PageRequest): Promise<Page<MessageView>> {
      const result = await integrations.listMessages({ integrationKey: query.integration_key, status: query.status }, page);
      return { items: result.items.map(messageView), total: result.total };
    },

    async getMessage(id: number): Promise<MessageView> {
      const row = await integrations.findMessage(id);
      if (!row) throw new NotFoundError();
      return messageView(row);
    },

    /**
     * Queues a failed message again for a new series of attempts; the delivery job is enqueued in the
     * same transaction. Any other state, or a disabled integration, is a 409 `not_retryable`.
     */
    async retry(id: number): Promise<MessageView> {
      return deps.db.transaction().execute(async (trx) => {
        const row = await integrations.findMessage(id, trx);
        if (!row) throw new NotFoundError();
        const now = clock.now().toISOString();
        const moved = await integrations.transition(trx, id, MESSAGE_MOVES.retry.from, {
          status: MESSAGE_MOVES.retry.to,
          attempts: 0,
          failed_at: null,
          updated_at: now,
        });
        if (!moved) {
          throw new ConflictError('not_retryable', `Only a failed message can be retried; this message is ${row.status}.`);
        }
        // Checked after the move so that a message in another state gets the plainer answer; throwing
        // here rolls the move back.
        const integration = await integrations.findIntegration(row.integration_id, trx);
        if (!integration?.enabled) {
          throw new ConflictError(
            'not_retryable',
            `The integration "${row.integration_key}" is disabled; enable it before retrying its messages.`,
          );
        }
        await deps.queue.enqueue(trx, 'integrations.deliver', { messageId: id }, { maxAttempts: row.max_attempts });
        return messageView((await integrations.findMessage(id, trx)) as MessageRow);
      });
    },
  };
}

export type IntegrationService = ReturnType<typeof createIntegrationService>;

export function integrationServiceFor(platform: Platform): IntegrationService {
  return createIntegrationService({
    db: platform.database.db,
    integrations: createIntegrationRepository(platform.database.db),
    queue: platform.queue,
    outbound: outboundFor(platform.config),
    clock: platform.clock,
  });
}
