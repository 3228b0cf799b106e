import type { Kysely } from 'kysely';
import type { ListRequest, Page } from '../../db/list.ts';
import type { DB } from '../../db/schema.ts';
import { audit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import { defineLifecycle } from '../../platform/lifecycle.ts';
import type { Outbound } from '../../platform/outbound.ts';
import { requirePermission } from '../../platform/permissions.ts';
import type { SecretBox } from '../../platform/secrets/box.ts';
import type { IntegrationRepository, IntegrationRow, MessageFilter, MessageRow } from './repository.ts';
import type { Integration, IntegrationCreate, IntegrationMessage, MessageSort, MessageStatus } from './schemas.ts';

/**
 * The message lifecycle as data. `start` also starts from `delivering`, so that an attempt cut short
 * by a crash is made again (at-least-once); `record_failure` keeps an exhausted message `delivering`
 * until the queue gives its job up (see delivery.ts).
 */
export const messageLifecycle = defineLifecycle<MessageStatus, 'start' | 'deliver' | 'requeue' | 'record_failure' | 'fail' | 'retry'>({
  table: 'integration_messages',
  moves: {
    start: { from: ['queued', 'delivering'], to: 'delivering' },
    deliver: { from: ['delivering'], to: 'delivered' },
    requeue: { from: ['delivering'], to: 'queued' },
    record_failure: { from: ['delivering'], to: 'delivering' },
    fail: { from: ['queued', 'delivering'], to: 'failed' },
    retry: { from: ['failed'], to: 'queued' },
  },
  refuse: (move, current) =>
    move === 'retry'
      ? new ConflictError('not_retryable', `Only a failed message can be retried; this message is ${current}.`)
      : new ConflictError('invalid_transition', `A ${current} message cannot ${move}.`),
});

/** Attempts per message (and again per manual retry). */
export const MESSAGE_MAX_ATTEMPTS = 5;

/** Keeps the scheme ("Bearer") and at most the last four characters of a long credential. */
export function maskCredential(value: string): string {
  const space = value.indexOf(' ');
  const scheme = space > 0 ? value.slice(0, space + 1) : '';
  const secret = value.slice(scheme.length);
  return `${scheme}****${secret.length >= 16 ? secret.slice(-4) : ''}`;
}

function integrationView(row: IntegrationRow, secrets: SecretBox): Integration {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    url: row.url,
    events: row.events,
    auth_header:
      row.auth_header === null ? null : maskCredential(secrets.open({ kind: 'integrationAuthHeader', id: row.key }, row.auth_header)),
    enabled: row.enabled,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function messageView(row: MessageRow): IntegrationMessage {
  return {
    id: row.id,
    integration_key: row.integration_key,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    payload: row.payload,
    delivered_at: row.delivered_at,
    failed_at: row.failed_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function createIntegrationService(deps: {
  db: Kysely<DB>;
  integrations: IntegrationRepository;
  queue: JobQueue;
  outbound: Outbound;
  secrets: SecretBox;
}) {
  const { integrations } = deps;
  const view = (row: IntegrationRow) => integrationView(row, deps.secrets);

  return {
    /** Creates an integration endpoint from the operator's JSON (`academy admin integrations create`). */
    async create(ctx: ServiceContext, input: IntegrationCreate): Promise<Integration> {
      requirePermission(ctx, 'integrations.manage');
      const errors: Record<string, string[]> = {};
      if (await integrations.findIntegrationByKey(input.key)) errors.key = [`An integration with the key "${input.key}" already exists.`];
      const { url } = input;
      const problem = await deps.outbound.targetProblem(url);
      if (problem) errors.url = [problem];
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      const events = input.events ? [...new Set(input.events)] : null;

      const now = ctx.clock.now().toISOString();
      const row = await integrations.insertIntegration(
        {
          key: input.key,
          name: input.name.trim(),
          url,
          events: events === null ? null : JSON.stringify(events),
          auth_header: input.auth_header ? deps.secrets.seal('integrationAuthHeader', input.auth_header.trim()) : null,
          enabled: true,
          created_at: now,
          updated_at: now,
        },
        // The credential is left out of the changes, as every secret is (src/platform/audit.ts).
        (trx, created) =>
          audit.record(trx, ctx, {
            action: 'integration.created',
            subject: { type: 'integration', id: created.id },
            changes: audit.changes(null, created),
          }),
      );
      return view(row);
    },

    /**
     * Stops (or resumes) deliveries to an integration (`academy admin integrations disable|enable`).
     * A disabled integration gets no new messages, its queued ones fail unsent, and its failed ones
     * cannot be retried until it is enabled again.
     */
    async setEnabled(ctx: ServiceContext, key: string, enabled: boolean): Promise<Integration> {
      requirePermission(ctx, 'integrations.manage');
      const row = await integrations.setIntegrationEnabled(key, enabled, ctx.clock.now().toISOString(), async (trx, before, after) => {
        if (before.enabled === after.enabled) return;
        await audit.record(trx, ctx, {
          action: enabled ? 'integration.enabled' : 'integration.disabled',
          subject: { type: 'integration', id: after.id },
          changes: { enabled: [before.enabled, after.enabled] },
        });
      });
      if (!row) throw new NotFoundError();
      return view(row);
    },

    async listIntegrations(_ctx: ServiceContext): Promise<Integration[]> {
      return (await integrations.listIntegrations()).map(view);
    },

    async listMessages(_ctx: ServiceContext, filter: MessageFilter, list: ListRequest<MessageSort>): Promise<Page<IntegrationMessage>> {
      const result = await integrations.listMessages(filter, list);
      return { items: result.items.map(messageView), total: result.total };
    },

    async getMessage(_ctx: ServiceContext, id: number): Promise<IntegrationMessage> {
      const row = await integrations.findMessage(id);
      if (!row) throw new NotFoundError();
      return messageView(row);
    },

    /**
     * Queues a failed message again for a new series of attempts; the delivery job is enqueued in the
     * same transaction. Any other state, or a disabled integration, is a 409 `not_retryable`.
     */
    async retry(ctx: ServiceContext, id: number): Promise<IntegrationMessage> {
      requirePermission(ctx, 'operations.manage');
      return deps.db.transaction().execute(async (trx) => {
        const row = await integrations.findMessage(id, trx);
        if (!row) throw new NotFoundError();
        const now = ctx.clock.now().toISOString();
        await messageLifecycle.apply(trx, id, 'retry', {
          set: { attempts: 0, failed_at: null, updated_at: now },
          effects: (trx) =>
            deps.queue.enqueue(trx, 'integrations.deliver', { messageId: id }, { maxAttempts: row.max_attempts }).then(() => {}),
        });
        await audit.record(trx, ctx, {
          action: 'integration_message.retried',
          subject: { type: 'integration_message', id },
          changes: { status: ['failed', 'queued'], attempts: [row.attempts, 0], failed_at: [row.failed_at, null] },
        });
        // Checked after the move so that a message in another state gets the plainer answer; throwing
        // here rolls the move back, and its audit event with it.
        const integration = await integrations.findIntegration(row.integration_id, trx);
        if (!integration?.enabled) {
          throw new ConflictError(
            'not_retryable',
            `The integration "${row.integration_key}" is disabled; enable it before retrying its messages.`,
          );
        }
        return messageView((await integrations.findMessage(id, trx)) as MessageRow);
      });
    },
  };
}

export type IntegrationService = ReturnType<typeof createIntegrationService>;
