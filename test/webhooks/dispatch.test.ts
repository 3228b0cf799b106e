import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import { createEventDispatcher, type DispatchDeps } from '../../src/modules/events/dispatch.ts';
import { createIntegrationRepository } from '../../src/modules/integrations/repository.ts';
import { createWebhookRepository } from '../../src/modules/webhooks/repository.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { operatorContext } from '../../src/platform/context.ts';
import { DISPATCH_MAX_ATTEMPTS } from '../../src/platform/events/outbox.ts';
import type { EventType } from '../../src/platform/events/types.ts';
import type { JobQueue } from '../../src/platform/jobs/queue.ts';
import { DEFAULT_MAX_ATTEMPTS } from '../../src/platform/jobs/queue.ts';
import { defaultBackoff } from '../../src/platform/jobs/registry.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { createTestAssembly, createTestPlatform } from '../support/platform.ts';

/** The operator's context, as the `academy` command passes it. */
const ops = operatorContext({ clock: systemClock, logger: pino({ level: 'silent' }) });

function deps(platform: Platform, queue: JobQueue = platform.queue): DispatchDeps {
  return {
    db: platform.database.db,
    events: platform.events,
    jobs: platform.jobs,
    webhooks: createWebhookRepository(platform.database.db),
    integrations: createIntegrationRepository(platform.database.db),
    queue,
    clock: platform.clock,
  };
}

function emit(platform: Platform, type: EventType, payload: Record<string, unknown>) {
  return platform.database.db.transaction().execute((trx) => platform.outbox.emit(trx, type, payload));
}

async function pendingJobs(platform: Platform, name: string) {
  return platform.database.db.selectFrom('jobs').selectAll().where('name', '=', name).execute();
}

describe('events.dispatch', () => {
  test('the dispatch of an event is retried for hours, not the default minutes: running out of attempts would lose the event', async () => {
    const platform = await createTestPlatform();
    const event = await emit(platform, 'enrollment.created', { enrolment_id: 1 });
    const [job] = (await pendingJobs(platform, 'events.dispatch')).filter((row) => JSON.parse(row.payload).eventId === event.id);
    assert.equal(job?.max_attempts, DISPATCH_MAX_ATTEMPTS);
    // The waits between its attempts (each between 0.75 and 1.25 times the doubling base, by jitter).
    const span = (attempts: number) => {
      let ms = 0;
      for (let attempt = 1; attempt < attempts; attempt++) ms += defaultBackoff(attempt);
      return ms;
    };
    assert.ok(span(DISPATCH_MAX_ATTEMPTS) > 9 * 3_600_000, `${span(DISPATCH_MAX_ATTEMPTS)} ms`);
    assert.ok(span(DEFAULT_MAX_ATTEMPTS) < 15 * 60_000, 'the default attempts span minutes');
    await platform.close();
  });

  test('fans an event out once per subscribed, enabled target, each with its own job; a re-run adds nothing', async () => {
    const { platform, services } = await createTestAssembly({ env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true' } });
    const webhooks = services.webhooks;
    const integrations = services.integrations;
    const all = await webhooks.create(ops, { url: 'http://127.0.0.1:9/all' });
    await webhooks.create(ops, { url: 'http://127.0.0.1:9/certs', events: ['certificate.issued'] });
    const disabled = await webhooks.create(ops, { url: 'http://127.0.0.1:9/off' });
    await createWebhookRepository(platform.database.db).disableEndpoint(
      platform.database.db,
      disabled.endpoint.id,
      'test',
      new Date().toISOString(),
    );
    await integrations.create(ops, { key: 'crm', name: 'CRM', url: 'http://127.0.0.1:9/crm', events: ['enrollment.created'] });
    await integrations.create(ops, { key: 'erp', name: 'ERP', url: 'http://127.0.0.1:9/erp', events: ['course.published'] });

    const dispatch = createEventDispatcher(deps(platform));
    const event = await emit(platform, 'enrollment.created', { enrolment_id: 1 });
    assert.deepEqual(await dispatch(event.id), { deliveries: 1, messages: 1 });
    assert.deepEqual(await dispatch(event.id), { deliveries: 0, messages: 0 }, 'a second run (e.g. after a crash) adds nothing');

    const [delivery] = await webhooks.deliveries(ops, all.endpoint.id);
    assert.equal(delivery?.event_id, event.id);
    assert.equal(delivery?.status, 'pending');
    const webhookJobs = await pendingJobs(platform, 'webhooks.deliver');
    assert.equal(webhookJobs.length, 1);
    assert.equal(webhookJobs[0]?.max_attempts, 8);
    assert.deepEqual(JSON.parse(webhookJobs[0]?.payload ?? ''), { deliveryId: delivery?.id });

    const messages = await integrations.listMessages(
      ops,
      {},
      { page: { page: 1, perPage: 15, offset: 0 }, sort: 'created_at', direction: 'desc' },
    );
    assert.equal(messages.total, 1);
    assert.equal(messages.items[0]?.integration_key, 'crm');
    assert.equal(messages.items[0]?.status, 'queued');
    assert.deepEqual(messages.items[0]?.payload, event);
    const integrationJobs = await pendingJobs(platform, 'integrations.deliver');
    assert.equal(integrationJobs.length, 1);
    assert.equal(integrationJobs[0]?.max_attempts, 5);

    const internal = await emit(platform, 'enrollment.cancelled', { enrolment_id: 1 });
    assert.deepEqual(await dispatch(internal.id), { deliveries: 0, messages: 0 }, 'internal domain events do not leave the platform');
  });

  test('two dispatches of one event at the same time still create one delivery and one message per target', async () => {
    const { platform, services } = await createTestAssembly({ env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true' } });
    await services.webhooks.create(ops, { url: 'http://127.0.0.1:9/all' });
    await services.integrations.create(ops, { key: 'crm', name: 'CRM', url: 'http://127.0.0.1:9/crm' });
    const event = await emit(platform, 'enrollment.created', { enrolment_id: 2 });
    const dispatch = createEventDispatcher(deps(platform));
    const outcomes = await Promise.all([dispatch(event.id), dispatch(event.id), dispatch(event.id)]);
    const total = outcomes.reduce((sum, o) => ({ deliveries: sum.deliveries + o.deliveries, messages: sum.messages + o.messages }));
    assert.deepEqual(total, { deliveries: 1, messages: 1 });
    assert.equal((await pendingJobs(platform, 'integrations.deliver')).length, 1);
    assert.equal((await pendingJobs(platform, 'webhooks.deliver')).length, 1);
  });

  test('the fan-out is one transaction: a failure part-way leaves no delivery, message or job behind', async () => {
    const { platform, services } = await createTestAssembly({ env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true' } });
    await services.webhooks.create(ops, { url: 'http://127.0.0.1:9/all' });
    await services.integrations.create(ops, { key: 'crm', name: 'CRM', url: 'http://127.0.0.1:9/crm' });
    const failing = {
      ...platform.queue,
      enqueue: async (...args: Parameters<JobQueue['enqueue']>) => {
        if (args[1] === 'integrations.deliver') throw new Error('enqueue failed');
        return platform.queue.enqueue(...args);
      },
    } as JobQueue;
    const event = await emit(platform, 'course.published', { course: 'x' });
    await assert.rejects(createEventDispatcher(deps(platform, failing))(event.id), /enqueue failed/);
    const db = platform.database.db;
    assert.deepEqual(await db.selectFrom('webhook_deliveries').selectAll().execute(), []);
    assert.deepEqual(await db.selectFrom('integration_messages').selectAll().execute(), []);
    assert.deepEqual(await pendingJobs(platform, 'webhooks.deliver'), []);

    assert.deepEqual(
      await createEventDispatcher(deps(platform))(event.id),
      { deliveries: 1, messages: 1 },
      'the retried dispatch succeeds',
    );
  });

  test('a failure report about a failed report is not delivered again (no feedback loop)', async () => {
    const { platform, services } = await createTestAssembly({ env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true' } });
    const webhooks = services.webhooks;
    const a = await webhooks.create(ops, { url: 'http://127.0.0.1:9/a' });
    const b = await webhooks.create(ops, { url: 'http://127.0.0.1:9/b' });
    const dispatch = createEventDispatcher(deps(platform));
    const db = platform.database.db;

    /** Fails the delivery job of `endpointId` for `eventId` for good, as the worker does, and returns the report. */
    async function failDelivery(endpointId: number, eventId: string) {
      const [delivery] = (await webhooks.deliveries(ops, endpointId)).filter((d) => d.event_id === eventId);
      const job = (await pendingJobs(platform, 'webhooks.deliver')).find((j) => JSON.parse(j.payload).deliveryId === delivery?.id);
      assert.ok(job);
      await db.updateTable('jobs').set({ failed_at: new Date().toISOString(), attempts: 8 }).where('id', '=', job.id).execute();
      return emit(platform, 'job.failed', { job_id: job.id, job_name: job.name, attempts: 8, last_error: 'HTTP 500' });
    }

    const original = await emit(platform, 'alert.sent', { alert: 1 });
    assert.deepEqual(await dispatch(original.id), { deliveries: 2, messages: 0 });
    const report = await failDelivery(a.endpoint.id, original.id);
    assert.deepEqual(await dispatch(report.id), { deliveries: 1, messages: 0 }, 'reported to b only, not to the failing a');
    assert.deepEqual(
      (await webhooks.deliveries(ops, b.endpoint.id)).map((d) => d.event_type),
      ['job.failed', 'alert.sent'],
    );
    const reportOfReport = await failDelivery(b.endpoint.id, report.id);
    assert.deepEqual(await dispatch(reportOfReport.id), { deliveries: 0, messages: 0 }, 'a failed report is not reported further');
  });
});
