import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Clock } from '../../platform/clock.ts';
import type { JobContext, JobDefinitions } from '../../platform/jobs/registry.ts';
import { PermanentJobError, RetryAfterError } from '../../platform/jobs/registry.ts';
import { type Outbound, outboundFor, retryAfterMs } from '../../platform/outbound.ts';
import type { Platform } from '../../platform/platform.ts';
import type { SecretBox } from '../../platform/secrets/box.ts';
import { createIntegrationRepository, type IntegrationRepository } from './repository.ts';
import { messageLifecycle } from './service.ts';

export const USER_AGENT = 'Academy-Integrations/1';

/** `last_error` of a message whose integration is disabled. */
export function disabledError(key: string): string {
  return `The integration "${key}" is disabled; the message was not sent. Enable it (academy admin integrations enable ${key}) and retry the message.`;
}

/** 30 s, 2 min, 8 min, 32 min, … (×4 each time, capped at 6 h), with ±20 % jitter. */
export function retryDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000 * 4 ** (Math.max(attempt, 1) - 1), 6 * 3_600_000);
  return Math.round(base * (0.8 + random() * 0.4));
}

/**
 * One attempt to deliver an integration message (job `integrations.deliver`): queued → delivering,
 * then delivered on a 2xx, or back to queued for the next attempt, or failed when attempts run out.
 */
export function createIntegrationDelivery(deps: {
  db: Kysely<DB>;
  integrations: IntegrationRepository;
  outbound: Outbound;
  clock: Clock;
  secrets: SecretBox;
}) {
  const { db, integrations, clock } = deps;

  async function attempt(payload: { messageId: number }, ctx: Pick<JobContext, 'attempt' | 'maxAttempts'>): Promise<void> {
    const message = await integrations.findMessage(payload.messageId);
    if (!message) return;
    const integration = await integrations.findIntegration(message.integration_id);
    if (!integration) return;
    const attempts = message.attempts + 1;
    const started = clock.now().toISOString();
    if (!integration.enabled) {
      // Disabled after the message was queued: nothing is sent, and the message says why.
      await messageLifecycle.tryApply(db, message.id, 'fail', {
        set: { last_error: disabledError(integration.key), failed_at: started, updated_at: started },
      });
      return;
    }
    // Opened before the attempt starts: a credential under another key fails the job (and is retried)
    // without counting as an attempt on the message.
    const authorization =
      integration.auth_header === null
        ? null
        : deps.secrets.open({ kind: 'integrationAuthHeader', id: integration.key }, integration.auth_header);
    // Already delivered or failed (e.g. a job that ran twice): the move is refused and nothing is sent.
    if (!(await messageLifecycle.tryApply(db, message.id, 'start', { set: { attempts, updated_at: started } }))) return;

    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'academy-message-id': String(message.id),
    };
    if (message.event_id) headers['academy-event-id'] = message.event_id;
    if (authorization) headers.authorization = authorization;
    const { response, failure, refused } = await deps.outbound.attempt(integration.url, JSON.stringify(message.payload), headers);

    const now = clock.now();
    const at = now.toISOString();
    const status = response?.status ?? null;
    if (failure === null) {
      await messageLifecycle.tryApply(db, message.id, 'deliver', {
        set: { last_status_code: status, last_error: null, delivered_at: at, updated_at: at },
      });
      return;
    }
    // After the last attempt the message stays `delivering` until the queue gives the job up: the
    // move to `failed` happens in that same transaction (exhausted), so a manual retry, which needs
    // `failed`, can never start a new series that this job's end would then overwrite.
    // A refused target (not a public address) stays refused: no later attempt can succeed.
    const final = refused || ctx.attempt >= ctx.maxAttempts;
    await messageLifecycle.tryApply(db, message.id, final ? 'record_failure' : 'requeue', {
      set: { last_status_code: status, last_error: failure, updated_at: at },
    });
    if (refused) throw new PermanentJobError(failure);
    throw new RetryAfterError(failure, Math.max(retryDelay(ctx.attempt), retryAfterMs(response?.headers['retry-after'], now) ?? 0));
  }

  return {
    attempt,
    /** Also covers a job that ended without a recorded attempt (e.g. an unexpected error). */
    async exhausted(trx: Kysely<DB>, payload: { messageId: number }, error: string): Promise<void> {
      const at = clock.now().toISOString();
      await messageLifecycle.tryApply(trx, payload.messageId, 'fail', { set: { last_error: error, failed_at: at, updated_at: at } });
    },
  };
}

export function integrationJobs(platform: Platform) {
  const delivery = createIntegrationDelivery({
    db: platform.database.db,
    integrations: createIntegrationRepository(platform.database.db),
    outbound: outboundFor(platform.config),
    clock: platform.clock,
    secrets: platform.secrets,
  });
  return {
    'integrations.deliver': {
      handler: (payload, ctx) => delivery.attempt(payload, ctx),
      backoff: (attempt) => retryDelay(attempt),
      onExhausted: (trx, payload, error) => delivery.exhausted(trx, payload, error),
    },
  } satisfies JobDefinitions;
}
