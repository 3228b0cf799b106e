import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { RETRY_SCHEDULE_MS, retryDelay } from '../../src/modules/webhooks/delivery.ts';
import { deliveryDuration } from '../../src/modules/webhooks/metrics.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { operatorContext } from '../../src/platform/context.ts';
import type { EventType } from '../../src/platform/events/types.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { eventually } from '../support/eventually.ts';
import { createTestAssembly } from '../support/platform.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

/** The operator's context, as the `academy` command passes it. */
const ops = operatorContext({ clock: systemClock, logger: pino({ level: 'silent' }) });

async function setup(t: TestContext, env: Record<string, string> = {}) {
  const { platform, services } = await createTestAssembly({ env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true', ...env } });
  const worker = platform.createWorker({ pollMs: 50 });
  await worker.start();
  t.after(() => worker.stop(2000));
  return { platform, worker, webhooks: services.webhooks, receiver: await startReceiver() };
}

function emit(platform: Platform, type: EventType, payload: Record<string, unknown>) {
  return platform.database.db.transaction().execute((trx) => platform.outbox.emit(trx, type, payload));
}

/** Makes the pending retry of every webhook delivery due now, once the worker has scheduled it. */
async function nextAttempt(platform: Platform, receiver: Receiver): Promise<void> {
  const db = platform.database.db;
  const before = receiver.requests.length;
  await eventually(
    async () => {
      const jobs = await db.selectFrom('jobs').selectAll().where('name', '=', 'webhooks.deliver').where('failed_at', 'is', null).execute();
      return jobs.length > 0 && jobs.every((job) => job.locked_at === null);
    },
    { what: 'the retry to be scheduled' },
  );
  await db
    .updateTable('jobs')
    .set({ run_at: new Date().toISOString() })
    .where('name', '=', 'webhooks.deliver')
    .where('failed_at', 'is', null)
    .execute();
  await receiver.received(before + 1);
}

describe('webhook delivery', () => {
  test('a delivery is a Standard Webhooks request whose signature verifies with the endpoint secret', async (t) => {
    const { platform, webhooks, receiver } = await setup(t);
    const { endpoint, secret } = await webhooks.create(ops, { url: `${receiver.url}/hooks/academy`, events: ['enrollment.created'] });
    assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.ok(Buffer.from(secret.slice('whsec_'.length), 'base64').length >= 24);

    const event = await emit(platform, 'enrollment.created', { enrolment_id: 7, student_id: 3 });
    const [request] = await receiver.received(1);
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/hooks/academy');
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers['user-agent'], 'Academy-Webhooks/1');
    assert.equal(request.headers['webhook-id'], event.id);
    assert.ok(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000) < 60);
    assert.match(String(request.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);

    const verified = new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    assert.deepEqual(verified, {
      id: event.id,
      type: 'enrollment.created',
      version: '1',
      occurred_at: event.occurred_at,
      payload: { enrolment_id: 7, student_id: 3 },
    });
    assert.throws(() => new Webhook(secret).verify(request.body.replace('"student_id":3', '"student_id":4'), request.headers as never));

    const [delivery] = await eventually(
      async () => {
        const list = await webhooks.deliveries(ops, endpoint.id);
        return list[0]?.status === 'succeeded' ? list : null;
      },
      { what: 'the delivery to succeed' },
    );
    assert.equal(delivery?.attempts, 1);
    assert.equal(delivery?.last_status_code, 200);
    assert.equal(delivery?.last_error, null);
    assert.ok(delivery?.completed_at);
  });

  test('only subscribed webhook event types reach an endpoint; omitted events mean all webhook types', async (t) => {
    const { platform, webhooks, receiver } = await setup(t);
    const other = await startReceiver();
    const narrow = await webhooks.create(ops, { url: receiver.url, events: ['certificate.issued'] });
    const all = await webhooks.create(ops, { url: other.url });
    assert.equal(all.endpoint.events, null);

    await emit(platform, 'enrollment.created', { enrolment_id: 1 });
    await emit(platform, 'enrollment.cancelled', { enrolment_id: 1 });
    await emit(platform, 'certificate.issued', { certificate_id: 9 });
    await receiver.received(1);
    await other.received(2);
    // Give a stray delivery a moment to show up before asserting there was none.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(
      receiver.requests.map((r) => JSON.parse(r.body).type),
      ['certificate.issued'],
    );
    assert.deepEqual(other.requests.map((r) => JSON.parse(r.body).type).sort(), ['certificate.issued', 'enrollment.created']);
    assert.equal((await webhooks.deliveries(ops, narrow.endpoint.id)).length, 1);
  });

  test('a receiver that answers 500 gets the event again on a later attempt and the delivery then succeeds', async (t) => {
    const { platform, webhooks, receiver } = await setup(t);
    const { endpoint, secret } = await webhooks.create(ops, { url: receiver.url });
    receiver.reply({ status: 500, body: 'database down' });
    const attemptsBy = async (outcome: string) =>
      (await deliveryDuration.get()).values.find((v) => v.metricName?.endsWith('_count') && v.labels.outcome === outcome)?.value ?? 0;
    const before = { success: await attemptsBy('success'), http_error: await attemptsBy('http_error') };
    const started = Date.now();
    const event = await emit(platform, 'course.published', { course: 'intro' });
    await receiver.received(1);

    const [pending] = await eventually(
      async () => {
        const list = await webhooks.deliveries(ops, endpoint.id);
        return list[0]?.attempts === 1 && list[0].next_attempt_at ? list : null;
      },
      { what: 'the failed attempt to be recorded' },
    );
    assert.equal(pending?.status, 'pending');
    assert.equal(pending?.last_status_code, 500);
    assert.equal(pending?.last_error, 'HTTP 500: database down');
    // The first retry comes about 5 s later (±20 % jitter).
    const wait = Date.parse(pending?.next_attempt_at ?? '') - started;
    assert.ok(wait >= 4000 && wait <= 7000, `first retry after ${wait} ms`);

    receiver.reply({ status: 204 });
    await nextAttempt(platform, receiver);
    const [done] = await eventually(
      async () => {
        const list = await webhooks.deliveries(ops, endpoint.id);
        return list[0]?.status === 'succeeded' ? list : null;
      },
      { what: 'the retried delivery to succeed' },
    );
    assert.equal(done?.attempts, 2);
    assert.equal(done?.last_status_code, 204);
    assert.equal(done?.next_attempt_at, null);
    const [first, second] = receiver.requests;
    assert.equal(first?.headers['webhook-id'], event.id);
    assert.equal(second?.headers['webhook-id'], event.id, 'a retry keeps the webhook-id, so receivers can de-duplicate');
    assert.equal(JSON.parse(second?.body ?? '').id, event.id);
    new Webhook(secret).verify(second?.body ?? '', second?.headers as Record<string, string>);
    // Each attempt is timed, by outcome (academy_webhook_delivery_duration_seconds).
    assert.deepEqual(
      { success: await attemptsBy('success'), http_error: await attemptsBy('http_error') },
      {
        success: before.success + 1,
        http_error: before.http_error + 1,
      },
    );
  });

  test("a receiver's Retry-After (seconds or HTTP date) postpones the next attempt", async (t) => {
    const { platform, webhooks, receiver } = await setup(t);
    const { endpoint } = await webhooks.create(ops, { url: receiver.url });
    receiver.reply({ status: 503, headers: { 'retry-after': '120' } });
    await emit(platform, 'export.completed', { report_id: 1 });
    await receiver.received(1);
    const [delivery] = await eventually(
      async () => {
        const list = await webhooks.deliveries(ops, endpoint.id);
        return list[0]?.attempts === 1 ? list : null;
      },
      { what: 'the retry to be scheduled' },
    );
    const wait = Date.parse(delivery?.next_attempt_at ?? '') - Date.now();
    assert.ok(wait > 110_000 && wait <= 120_000, `next attempt in ${wait} ms`);
    const job = await eventually(
      () =>
        platform.database.db
          .selectFrom('jobs')
          .selectAll()
          .where('name', '=', 'webhooks.deliver')
          .where('locked_at', 'is', null)
          .executeTakeFirst(),
      { what: 'the job to be rescheduled' },
    );
    const drift = Date.parse(job.run_at) - Date.parse(delivery?.next_attempt_at ?? '');
    assert.ok(drift >= 0 && drift < 1000, `the job runs when the delivery says (drift ${drift} ms)`);

    receiver.reply({ status: 429, headers: { 'retry-after': new Date(Date.now() + 600_000).toUTCString() } });
    await nextAttempt(platform, receiver);
    const [later] = await eventually(
      async () => {
        const list = await webhooks.deliveries(ops, endpoint.id);
        return list[0]?.attempts === 2 && list[0].next_attempt_at ? list : null;
      },
      { what: 'the second retry to be scheduled' },
    );
    const wait2 = Date.parse(later?.next_attempt_at ?? '') - Date.now();
    assert.ok(wait2 > 580_000 && wait2 <= 600_000, `next attempt in ${wait2} ms`);
  });

  test('410 Gone disables the endpoint, ends the delivery, and the endpoint gets nothing more', async (t) => {
    const { platform, webhooks, receiver } = await setup(t);
    const { endpoint } = await webhooks.create(ops, { url: receiver.url });
    receiver.reply({ status: 410, body: 'gone' });
    await emit(platform, 'course.archived', { course: 'old' });
    await receiver.received(1);
    const [delivery] = await eventually(
      async () => {
        const list = await webhooks.deliveries(ops, endpoint.id);
        return list[0]?.status === 'failed' ? list : null;
      },
      { what: 'the delivery to end' },
    );
    assert.equal(delivery?.attempts, 1);
    assert.equal(delivery?.last_status_code, 410);
    assert.ok(delivery?.completed_at);
    const [listed] = await webhooks.list(ops);
    assert.equal(listed?.enabled, false);
    assert.match(listed?.disabled_reason ?? '', /410/);

    await emit(platform, 'course.archived', { course: 'older' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.equal(receiver.requests.length, 1);
    assert.equal((await webhooks.deliveries(ops, endpoint.id)).length, 1);
    const jobs = await platform.database.db.selectFrom('jobs').selectAll().where('name', '=', 'webhooks.deliver').execute();
    assert.deepEqual(jobs, [], 'the delivery job completed rather than failing');
    assert.deepEqual(await platform.events.listByType('job.failed'), []);
  });

  test('a receiver that always fails gets 8 attempts, then the delivery is failed and job.failed is emitted', async (t) => {
    const { platform, webhooks, receiver } = await setup(t);
    const observer = await startReceiver();
    const { endpoint } = await webhooks.create(ops, { url: receiver.url });
    await webhooks.create(ops, { url: observer.url, events: ['job.failed'] });
    receiver.reply({ status: 502, body: 'bad gateway' });
    await emit(platform, 'alert.sent', { alert: 'disk' });
    await receiver.received(1);
    for (let attempt = 2; attempt <= 8; attempt++) await nextAttempt(platform, receiver);

    const [delivery] = await eventually(
      async () => {
        const list = await webhooks.deliveries(ops, endpoint.id);
        return list[0]?.status === 'failed' ? list : null;
      },
      { what: 'the delivery to fail' },
    );
    assert.equal(delivery?.attempts, 8);
    assert.equal(delivery?.last_status_code, 502);
    assert.equal(delivery?.last_error, 'HTTP 502: bad gateway');
    assert.equal(delivery?.next_attempt_at, null);
    assert.ok(delivery?.completed_at);
    assert.equal(receiver.requests.length, 8);

    const [failedEvent] = await platform.events.listByType('job.failed');
    assert.equal(failedEvent?.type, 'job.failed');
    const report = JSON.parse(failedEvent?.payload ?? '{}');
    assert.equal(report.job_name, 'webhooks.deliver');
    assert.equal(report.attempts, 8);
    assert.match(report.last_error, /502/);

    // The failure is reported to the other endpoint, never to the failing one itself (no feedback loop).
    const [reported] = await observer.received(1);
    assert.equal(JSON.parse(reported?.body ?? '{}').type, 'job.failed');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(receiver.requests.length, 8);
    assert.deepEqual(
      (await webhooks.deliveries(ops, endpoint.id)).map((d) => d.event_type),
      ['alert.sent'],
    );
  });

  test('an attempt that gets no answer within ACADEMY_OUTBOUND_TIMEOUT_MS is a failed attempt', async (t) => {
    const { platform, webhooks, receiver } = await setup(t, { ACADEMY_OUTBOUND_TIMEOUT_MS: '500' });
    const { endpoint } = await webhooks.create(ops, { url: receiver.url });
    receiver.reply({ status: 200, hang: true });
    await emit(platform, 'enrollment.completed', { enrolment_id: 2 });
    await receiver.received(1);
    const [delivery] = await eventually(
      async () => {
        const list = await webhooks.deliveries(ops, endpoint.id);
        return list[0]?.attempts === 1 ? list : null;
      },
      { what: 'the timed-out attempt to be recorded' },
    );
    assert.equal(delivery?.status, 'pending');
    assert.equal(delivery?.last_status_code, null);
    assert.equal(delivery?.last_error, 'no response within 500 ms');
  });

  test('deleting an endpoint drops its history and pending deliveries', async (t) => {
    const { platform, webhooks, receiver } = await setup(t);
    const { endpoint } = await webhooks.create(ops, { url: receiver.url });
    receiver.reply({ status: 500 });
    await emit(platform, 'enrollment.promoted', { enrolment_id: 3 });
    await receiver.received(1);
    await eventually(async () => (await webhooks.deliveries(ops, endpoint.id))[0]?.attempts === 1, { what: 'the retry to be scheduled' });
    await webhooks.delete(ops, endpoint.id);
    assert.deepEqual(await webhooks.list(ops), []);
    await assert.rejects(webhooks.deliveries(ops, endpoint.id), { code: 'not_found' });
    await assert.rejects(webhooks.delete(ops, endpoint.id), { code: 'not_found' });
    await platform.database.db.updateTable('jobs').set({ run_at: new Date().toISOString() }).execute();
    await eventually(
      async () =>
        (await platform.database.db.selectFrom('jobs').select('id').where('name', '=', 'webhooks.deliver').execute()).length === 0,
      { what: 'the orphaned delivery job to complete' },
    );
    assert.equal(receiver.requests.length, 1);
  });

  test('the retry schedule is about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h with jitter', () => {
    assert.deepEqual(RETRY_SCHEDULE_MS, [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 86_400_000]);
    assert.equal(
      retryDelay(1, () => 0),
      4000,
    );
    assert.equal(
      retryDelay(1, () => 1),
      6000,
    );
    assert.equal(
      retryDelay(7, () => 0.5),
      86_400_000,
    );
  });
});
