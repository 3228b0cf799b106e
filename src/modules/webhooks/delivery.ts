import type { Kysely } from 'kysely';
import { Webhook } from 'standardwebhooks';
import type { DB } from '../../db/schema.ts';
import { audit } from '../../platform/audit.ts';
import type { Clock } from '../../platform/clock.ts';
import { system } from '../../platform/context.ts';
import { toDomainEvent } from '../../platform/events/outbox.ts';
import type { EventRepository } from '../../platform/events/repository.ts';
import type { JobPayloads } from '../../platform/jobs/names.ts';
import type { JobContext, JobDefinitions } from '../../platform/jobs/registry.ts';
import { PermanentJobError, RetryAfterError } from '../../platform/jobs/registry.ts';
import { defineLifecycle } from '../../platform/lifecycle.ts';
import { type Outbound, outboundFor, retryAfterMs } from '../../platform/outbound.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SecretBox } from '../../platform/secrets/box.ts';
import { currentRequestId } from '../../platform/trace.ts';
import { deliveryDuration } from './metrics.ts';
import { createWebhookRepository, type WebhookRepository } from './repository.ts';

/** Delay before each retry (CONTRACT.md): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h — 8 attempts in all. */
export const RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 86_400_000] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;

export const USER_AGENT = 'Academy-Webhooks/1';

/** The delay after failed attempt `attempt` (1-based), with ±20 % jitter so that retries spread out. */
export function retryDelay(attempt: number, random: () => number = Math.random): number {
  const base = RETRY_SCHEDULE_MS[Math.min(Math.max(attempt, 1), RETRY_SCHEDULE_MS.length) - 1] as number;
  return Math.round(base * (0.8 + random() * 0.4));
}

export interface WebhookDeliveryDeps {
  db: Kysely<DB>;
  webhooks: WebhookRepository;
  events: EventRepository;
  outbound: Outbound;
  clock: Clock;
  secrets: SecretBox;
}

/**
 * One attempt to deliver an event to one endpoint (job `webhooks.deliver`). 2xx ends the delivery as
 * succeeded; 410 Gone disables the endpoint and ends it as failed; anything else schedules the next
 * attempt (the later of the schedule and the receiver's Retry-After) until attempts run out.
 */
/**
 * A delivery's lifecycle as data: `pending` while attempts remain (each recorded on it), then
 * `succeeded` or `failed` for good. A delivery that has ended takes no further move, so a job that runs
 * again after its worker died changes nothing.
 */
export const deliveryLifecycle = defineLifecycle<'pending' | 'succeeded' | 'failed', 'record_attempt' | 'succeed' | 'fail' | 'redeliver'>({
  table: 'webhook_deliveries',
  moves: {
    record_attempt: { from: ['pending'], to: 'pending' },
    succeed: { from: ['pending'], to: 'succeeded' },
    fail: { from: ['pending'], to: 'failed' },
    // The operator's `academy admin webhooks redeliver`: one more attempt of a delivery that has ended.
    redeliver: { from: ['succeeded', 'failed'], to: 'pending' },
  },
});

/** The delivery's attempts so far: those made before a redelivery, and this job's. */
function attempts(payload: JobPayloads['webhooks.deliver'], ctx: Pick<JobContext, 'attempt'>): number {
  return (payload.attemptsBefore ?? 0) + ctx.attempt;
}

export function createWebhookDelivery(deps: WebhookDeliveryDeps) {
  const { webhooks, clock } = deps;

  async function attempt(payload: JobPayloads['webhooks.deliver'], ctx: Pick<JobContext, 'attempt' | 'maxAttempts'>): Promise<void> {
    const delivery = await webhooks.findDelivery(payload.deliveryId);
    // Deleted with its endpoint, or already finished by an earlier run of this job: nothing to do.
    if (delivery?.status !== 'pending') return;
    const endpoint = await webhooks.findEndpoint(delivery.endpoint_id);
    const eventRow = await deps.events.findById(delivery.event_id);
    if (!endpoint || !eventRow) return;
    const started = clock.now();
    if (!endpoint.enabled) {
      const at = started.toISOString();
      await deliveryLifecycle.tryApply(deps.db, delivery.id, 'fail', {
        set: {
          last_error: `endpoint disabled: ${endpoint.disabled_reason ?? 'by the operator'}`,
          next_attempt_at: null,
          completed_at: at,
          updated_at: at,
        },
      });
      return;
    }

    const body = JSON.stringify(toDomainEvent(eventRow));
    // A secret that does not open (another key) fails the attempt with the reason; it is retried, so
    // a process restarted with the right key delivers it.
    const secret = deps.secrets.open({ kind: 'webhookSecret', id: endpoint.id }, endpoint.secret);
    const signature = new Webhook(secret).sign(eventRow.id, started, body);
    const timer = deliveryDuration.startTimer();
    const { response, failure, refused } = await deps.outbound.attempt(endpoint.url, body, {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': eventRow.id,
      'webhook-timestamp': String(Math.floor(started.getTime() / 1000)),
      'webhook-signature': signature,
      // The API request whose change this event describes, for the receiver's support questions.
      ...(currentRequestId() ? { 'academy-request-id': currentRequestId() as string } : {}),
    });

    timer({ outcome: failure === null ? 'success' : response ? 'http_error' : 'network_error' });
    const now = clock.now();
    const at = now.toISOString();
    const status = response?.status ?? null;
    if (failure === null) {
      await deliveryLifecycle.tryApply(deps.db, delivery.id, 'succeed', {
        set: {
          attempts: attempts(payload, ctx),
          last_status_code: status,
          last_error: null,
          next_attempt_at: null,
          completed_at: at,
          updated_at: at,
        },
      });
      return;
    }
    if (status === 410) {
      // The receiver says the endpoint is gone for good: stop sending it anything.
      await deps.db.transaction().execute(async (trx) => {
        const reason = `The endpoint answered 410 Gone at ${at}.`;
        await webhooks.disableEndpoint(trx, endpoint.id, reason, at);
        await audit.record(
          trx,
          { actor: system, clock, requestId: null, via: 'job', ip: null },
          {
            action: 'webhook_endpoint.disabled',
            subject: { type: 'webhook_endpoint', id: endpoint.id },
            changes: { enabled: [true, false], disabled_reason: [null, reason] },
          },
        );
        await deliveryLifecycle.tryApply(trx, delivery.id, 'fail', {
          set: {
            attempts: attempts(payload, ctx),
            last_status_code: status,
            last_error: `${failure} (endpoint disabled)`,
            next_attempt_at: null,
            completed_at: at,
            updated_at: at,
          },
        });
      });
      return;
    }

    if (refused) {
      // The target is not a public address (e.g. its name now resolves to a private one): no retry
      // can succeed, so the delivery fails now; `onExhausted` records the end.
      await deliveryLifecycle.tryApply(deps.db, delivery.id, 'record_attempt', {
        set: {
          attempts: attempts(payload, ctx),
          last_status_code: null,
          last_error: failure,
          next_attempt_at: null,
          updated_at: at,
        },
      });
      throw new PermanentJobError(failure);
    }
    const last = ctx.attempt >= ctx.maxAttempts;
    const delay = Math.max(retryDelay(ctx.attempt), retryAfterMs(response?.headers['retry-after'], now) ?? 0);
    await deliveryLifecycle.tryApply(deps.db, delivery.id, 'record_attempt', {
      set: {
        attempts: attempts(payload, ctx),
        last_status_code: status,
        last_error: failure,
        next_attempt_at: last ? null : new Date(now.getTime() + delay).toISOString(),
        updated_at: at,
      },
    });
    // On the last attempt the worker fails the job; `onExhausted` records the final outcome.
    throw new RetryAfterError(failure, delay);
  }

  return {
    attempt,

    /** The delivery failed for good: record the final outcome in the worker's transaction. */
    async exhausted(trx: Kysely<DB>, payload: { deliveryId: number }, error: string): Promise<void> {
      const at = clock.now().toISOString();
      await deliveryLifecycle.tryApply(trx, payload.deliveryId, 'fail', {
        set: {
          last_error: error,
          next_attempt_at: null,
          completed_at: at,
          updated_at: at,
        },
      });
    },
  };
}

export function webhookJobs(platform: Platform) {
  const delivery = createWebhookDelivery({
    db: platform.database.db,
    webhooks: createWebhookRepository(platform.database.db),
    events: platform.events,
    outbound: outboundFor(platform.config),
    clock: platform.clock,
    secrets: platform.secrets,
  });
  return {
    'webhooks.deliver': {
      handler: (payload, ctx) => delivery.attempt(payload, ctx),
      backoff: (attempt) => retryDelay(attempt),
      onExhausted: (trx, payload, error) => delivery.exhausted(trx, payload, error),
    },
  } satisfies JobDefinitions;
}
