import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { audit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.ts';
import { newEventId } from '../../platform/events/outbox.ts';
import type { EventRepository } from '../../platform/events/repository.ts';
import { EVENT_VERSION, isWebhookEventType, WEBHOOK_EVENT_TYPES } from '../../platform/events/types.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Outbound } from '../../platform/outbound.ts';
import { requirePermission } from '../../platform/permissions.ts';
import type { SecretBox } from '../../platform/secrets/box.ts';
import { deliveryLifecycle } from './delivery.ts';
import type { DeliveryRow, EndpointRow, WebhookRepository } from './repository.ts';

/** The event type of `academy admin webhooks test`: sent to one endpoint only, never fanned out. */
export const PING_EVENT_TYPE = 'ping';

export interface EndpointView {
  id: number;
  url: string;
  /** Subscribed event types; null for every webhook event type (including ones added later). */
  events: string[] | null;
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryView {
  id: number;
  endpoint_id: number;
  event_id: string;
  event_type: string;
  /** pending (first attempt or retries to come), succeeded or failed. */
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  completed_at: string | null;
  created_at: string;
}

export interface CreateEndpointInput {
  url: string;
  events?: string[] | undefined;
}

export function endpointView(row: EndpointRow): EndpointView {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function deliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    endpoint_id: row.endpoint_id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    next_attempt_at: row.next_attempt_at,
    completed_at: row.completed_at,
    created_at: row.created_at,
  };
}

/** The Standard Webhooks secret: `whsec_` + base64 of 32 random bytes (the signing key). */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Checks a list of event types to subscribe to: each must be a webhook event type; undefined means
 * all of them. Shared by webhook endpoints and integrations.
 */
export function checkEventTypes(events: unknown, field = 'events'): string[] | null {
  if (events === undefined || events === null) return null;
  if (!Array.isArray(events) || events.some((e) => typeof e !== 'string')) {
    throw ValidationError.field(field, 'The events must be a list of event type names.');
  }
  const cleaned = [...new Set((events as string[]).map((e) => e.trim()).filter(Boolean))];
  if (cleaned.length === 0) throw ValidationError.field(field, 'Name at least one event type, or omit the events for all of them.');
  const unknown = cleaned.filter((e) => !isWebhookEventType(e));
  if (unknown.length > 0) {
    throw ValidationError.field(field, `Unknown event type(s): ${unknown.join(', ')}. Known types: ${WEBHOOK_EVENT_TYPES.join(', ')}.`);
  }
  return cleaned;
}

export interface WebhookServiceDeps {
  db: Kysely<DB>;
  webhooks: WebhookRepository;
  events: EventRepository;
  queue: JobQueue;
  outbound: Outbound;
  secrets: SecretBox;
}

/** Webhook endpoints as the operator manages them (`academy webhooks …`, `academy admin webhooks …`). */
export function createWebhookService(deps: WebhookServiceDeps) {
  const { webhooks } = deps;

  async function endpoint(id: number, trx: Kysely<DB> = deps.db): Promise<EndpointRow> {
    const row = await webhooks.findEndpoint(id, trx);
    if (!row) throw new NotFoundError();
    return row;
  }

  /** A disabled endpoint is sent nothing: an attempt would end at once as failed. */
  function checkEnabled(row: EndpointRow): void {
    if (!row.enabled) {
      throw new ConflictError('conflict', `Webhook endpoint ${row.id} is disabled (${row.disabled_reason ?? 'by the operator'}).`);
    }
  }

  async function delivery(id: number, trx: Kysely<DB>): Promise<DeliveryRow> {
    const row = await webhooks.findDelivery(id, trx);
    if (!row) throw new NotFoundError();
    return row;
  }

  return {
    /** Creates an endpoint; the returned secret is shown once (it is stored encrypted, for signing, but never listed). */
    async create(ctx: ServiceContext, input: CreateEndpointInput): Promise<{ endpoint: EndpointView; secret: string }> {
      requirePermission(ctx, 'integrations.manage');
      const url = input.url.trim();
      const problem = await deps.outbound.targetProblem(url);
      if (problem) throw ValidationError.field('url', problem);
      const events = checkEventTypes(input.events);
      const now = ctx.clock.now().toISOString();
      const secret = newSecret();
      const row = await webhooks.insertEndpoint(
        {
          url,
          secret: deps.secrets.seal('webhookSecret', secret),
          events: events === null ? null : JSON.stringify(events),
          enabled: true,
          disabled_reason: null,
          created_at: now,
          updated_at: now,
        },
        // The secret is left out of the changes, as every secret is (src/platform/audit.ts).
        (trx, created) =>
          audit.record(trx, ctx, {
            action: 'webhook_endpoint.created',
            subject: { type: 'webhook_endpoint', id: created.id },
            changes: audit.changes(null, created),
          }),
      );
      return { endpoint: endpointView(row), secret };
    },

    async list(_ctx: ServiceContext): Promise<EndpointView[]> {
      return (await webhooks.listEndpoints()).map(endpointView);
    },

    async delete(ctx: ServiceContext, id: number): Promise<EndpointView> {
      requirePermission(ctx, 'integrations.manage');
      const row = await endpoint(id);
      await webhooks.deleteEndpoint(id, (trx) =>
        audit.record(trx, ctx, {
          action: 'webhook_endpoint.deleted',
          subject: { type: 'webhook_endpoint', id },
          changes: audit.changes(endpointView(row), null),
        }),
      );
      return endpointView(row);
    },

    /** The endpoint's most recent deliveries, newest first. */
    async deliveries(_ctx: ServiceContext, id: number, limit = 50): Promise<DeliveryView[]> {
      await endpoint(id);
      return (await webhooks.recentDeliveries(id, limit)).map(deliveryView);
    },

    /**
     * Queues a signed `ping` to one endpoint now: an event of its own (written to the event table, not
     * fanned out to other endpoints or integrations) and one delivery with one attempt.
     */
    async test(ctx: ServiceContext, endpointId: number): Promise<DeliveryView> {
      requirePermission(ctx, 'integrations.manage');
      return deps.db.transaction().execute(async (trx) => {
        checkEnabled(await endpoint(endpointId, trx));
        const now = ctx.clock.now().toISOString();
        const eventId = newEventId();
        await deps.events.insert(trx, {
          id: eventId,
          type: PING_EVENT_TYPE,
          version: EVENT_VERSION,
          occurred_at: now,
          payload: JSON.stringify({ endpoint_id: endpointId }),
        });
        const deliveryId = (await webhooks.insertDelivery(trx, {
          endpoint_id: endpointId,
          event_id: eventId,
          event_type: PING_EVENT_TYPE,
          status: 'pending',
          attempts: 0,
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        })) as number;
        await deps.queue.enqueue(trx, 'webhooks.deliver', { deliveryId }, { maxAttempts: 1 });
        await audit.record(trx, ctx, {
          action: 'webhook_endpoint.tested',
          subject: { type: 'webhook_endpoint', id: endpointId },
          changes: { delivery_id: [null, deliveryId], event_id: [null, eventId] },
        });
        ctx.logger.info({ endpointId, deliveryId, eventId }, 'webhook ping queued');
        return deliveryView(await delivery(deliveryId, trx));
      });
    },

    /**
     * Queues one more attempt of a delivery that has ended (succeeded or failed), now: the same event,
     * so the same `webhook-id` and body, and receivers can de-duplicate it. A pending delivery has its
     * next attempt queued already (a 409), and so does a missing one (a 404).
     */
    async redeliver(ctx: ServiceContext, deliveryId: number): Promise<DeliveryView> {
      requirePermission(ctx, 'integrations.manage');
      return deps.db.transaction().execute(async (trx) => {
        const current = await delivery(deliveryId, trx);
        checkEnabled(await endpoint(current.endpoint_id, trx));
        const now = ctx.clock.now().toISOString();
        await deliveryLifecycle.apply(trx, deliveryId, 'redeliver', {
          set: { next_attempt_at: now, completed_at: null, updated_at: now },
          effects: async (trx) => {
            await deps.queue.enqueue(trx, 'webhooks.deliver', { deliveryId, attemptsBefore: current.attempts }, { maxAttempts: 1 });
          },
        });
        await audit.record(trx, ctx, {
          action: 'webhook_delivery.redelivered',
          subject: { type: 'webhook_delivery', id: deliveryId },
          changes: { status: [current.status, 'pending'], completed_at: [current.completed_at, null] },
        });
        ctx.logger.info({ deliveryId, endpointId: current.endpoint_id, eventId: current.event_id }, 'webhook redelivery queued');
        return deliveryView(await delivery(deliveryId, trx));
      });
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
