import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import { type DomainEvent, toDomainEvent } from '../../platform/events/outbox.ts';
import type { EventRepository } from '../../platform/events/repository.ts';
import { isWebhookEventType } from '../../platform/events/types.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { JobDefinitions } from '../../platform/jobs/registry.ts';
import type { JobRepository } from '../../platform/jobs/repository.ts';
import type { Platform } from '../../platform/platform.ts';
import { createIntegrationRepository, type IntegrationRepository } from '../integrations/repository.ts';
import { MESSAGE_MAX_ATTEMPTS } from '../integrations/service.ts';
import { MAX_ATTEMPTS as WEBHOOK_MAX_ATTEMPTS } from '../webhooks/delivery.ts';
import { createWebhookRepository, type WebhookRepository } from '../webhooks/repository.ts';

export interface DispatchDeps {
  db: Kysely<DB>;
  events: EventRepository;
  jobs: JobRepository;
  webhooks: WebhookRepository;
  integrations: IntegrationRepository;
  queue: JobQueue;
  clock: Clock;
}

function subscribes(events: readonly string[] | null, type: string): boolean {
  return events === null || events.includes(type);
}

interface FailureReport {
  /** The endpoint or integration whose own delivery failed: it does not get the report. */
  endpointId?: number | undefined;
  integrationId?: number | undefined;
  /** The failed delivery carried a failure report itself: reports are not reported further. */
  suppress: boolean;
}

/**
 * Which targets must not get a `job.failed` event about a delivery job. Without this a receiver that
 * is down would be sent a report of its own failure, fail that too, and so on for ever (or two
 * failing receivers would report to each other).
 */
async function failureReport(deps: DispatchDeps, event: DomainEvent): Promise<FailureReport> {
  if (event.type !== 'job.failed' || typeof event.payload.job_id !== 'number') return { suppress: false };
  const job = await deps.jobs.findById(event.payload.job_id);
  if (!job) return { suppress: false };
  const payload = JSON.parse(job.payload) as { deliveryId?: number; messageId?: number };
  if (job.name === 'webhooks.deliver' && payload.deliveryId !== undefined) {
    const delivery = await deps.webhooks.findDelivery(payload.deliveryId);
    return { endpointId: delivery?.endpoint_id, suppress: delivery?.event_type === 'job.failed' };
  }
  if (job.name === 'integrations.deliver' && payload.messageId !== undefined) {
    const message = await deps.integrations.findMessage(payload.messageId);
    return { integrationId: message?.integration_id, suppress: message?.event_type === 'job.failed' };
  }
  return { suppress: false };
}

/**
 * Fans one outbox event out (job `events.dispatch`): a delivery for every enabled webhook endpoint and
 * a message for every enabled integration subscribed to its type, each with its own delivery job, all
 * in one transaction. Running it twice for an event adds nothing. Only webhook event types
 * (types.ts) leave the platform; other domain events stop here.
 */
export function createEventDispatcher(deps: DispatchDeps) {
  return async function dispatch(eventId: string): Promise<{ deliveries: number; messages: number }> {
    const row = await deps.events.findById(eventId);
    if (!row || !isWebhookEventType(row.type)) return { deliveries: 0, messages: 0 };
    const event = toDomainEvent(row);
    const skip = await failureReport(deps, event);
    if (skip.suppress) return { deliveries: 0, messages: 0 };
    const envelope = JSON.stringify(event);
    return deps.db.transaction().execute(async (trx) => {
      const now = deps.clock.now().toISOString();
      let deliveries = 0;
      let messages = 0;
      for (const endpoint of await deps.webhooks.enabledEndpoints(trx)) {
        if (endpoint.id === skip.endpointId || !subscribes(endpoint.events, event.type)) continue;
        const deliveryId = await deps.webhooks.insertDelivery(trx, {
          endpoint_id: endpoint.id,
          event_id: event.id,
          event_type: event.type,
          status: 'pending',
          attempts: 0,
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        });
        if (deliveryId === undefined) continue;
        await deps.queue.enqueue(trx, 'webhooks.deliver', { deliveryId }, { maxAttempts: WEBHOOK_MAX_ATTEMPTS });
        deliveries++;
      }
      for (const integration of await deps.integrations.enabledIntegrations(trx)) {
        if (integration.id === skip.integrationId || !subscribes(integration.events, event.type)) continue;
        const messageId = await deps.integrations.insertMessage(trx, {
          integration_id: integration.id,
          integration_key: integration.key,
          event_id: event.id,
          event_type: event.type,
          payload: envelope,
          status: 'queued',
          attempts: 0,
          max_attempts: MESSAGE_MAX_ATTEMPTS,
          created_at: now,
          updated_at: now,
        });
        if (messageId === undefined) continue;
        await deps.queue.enqueue(trx, 'integrations.deliver', { messageId }, { maxAttempts: MESSAGE_MAX_ATTEMPTS });
        messages++;
      }
      return { deliveries, messages };
    });
  };
}

export function eventJobs(platform: Platform) {
  const dispatch = createEventDispatcher({
    db: platform.database.db,
    events: platform.events,
    jobs: platform.jobs,
    webhooks: createWebhookRepository(platform.database.db),
    integrations: createIntegrationRepository(platform.database.db),
    queue: platform.queue,
    clock: platform.clock,
  });
  return {
    'events.dispatch': {
      async handler(payload) {
        await dispatch(payload.eventId);
      },
    },
  } satisfies JobDefinitions;
}
