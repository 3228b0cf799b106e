import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { IntegrationCreate } from '../../src/modules/integrations/schemas.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { operatorContext } from '../../src/platform/context.ts';
import type { EventType } from '../../src/platform/events/types.ts';
import type { Worker } from '../../src/platform/jobs/worker.ts';
import { validateInput } from '../../src/platform/validation.ts';
import { assertError } from '../support/errors.ts';
import { eventually } from '../support/eventually.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

/** The operator's context, as the `academy` command passes it. */
const ops = operatorContext({ clock: systemClock, logger: pino({ level: 'silent' }) });

describe('integration messages', () => {
  let app: TestApp;
  let worker: Worker;
  let reader: string;
  let writer: string;

  before(async () => {
    app = await createTestApp({ env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true' } });
    worker = app.platform.createWorker({ pollMs: 50 });
    await worker.start();
    reader = await app.token(['integration-messages:read']);
    writer = await app.token(['integration-messages:read', 'integration-messages:write']);
  });
  after(() => worker.stop(2000));

  function emit(type: EventType, payload: Record<string, unknown>) {
    const { platform } = app;
    return platform.database.db.transaction().execute((trx) => platform.outbox.emit(trx, type, payload));
  }

  async function get(url: string, token = reader) {
    return app.http.inject({ method: 'GET', url, headers: bearer(token) });
  }

  async function retry(id: number | string, token = writer) {
    return app.http.inject({ method: 'POST', url: `/api/v1/integrations/${id}/retry`, headers: bearer(token) });
  }

  /** Polls GET /integrations/{id} until `ready` holds for the message. */
  async function messageWhen(id: number, ready: (message: Record<string, any>) => boolean, what: string) {
    return eventually(
      async () => {
        const message = (await get(`/api/v1/integrations/${id}`)).json().data;
        return ready(message) ? message : null;
      },
      { what: what },
    );
  }

  async function onlyMessage(key: string): Promise<Record<string, any>> {
    const list = await eventually(
      async () => {
        const body = (await get(`/api/v1/integrations?integration_key=${key}`)).json();
        return body.data.length > 0 ? body.data : null;
      },
      { what: `a message for ${key}` },
    );
    assert.equal(list.length, 1);
    return list[0];
  }

  /** Makes the scheduled retry of the integration deliveries due now. */
  async function nextAttempt(receiver: Receiver): Promise<void> {
    const db = app.platform.database.db;
    const before = receiver.requests.length;
    await eventually(
      async () => {
        const jobs = await db
          .selectFrom('jobs')
          .selectAll()
          .where('name', '=', 'integrations.deliver')
          .where('failed_at', 'is', null)
          .execute();
        return jobs.length > 0 && jobs.every((job) => job.locked_at === null);
      },
      { what: 'the retry to be scheduled' },
    );
    await db
      .updateTable('jobs')
      .set({ run_at: new Date().toISOString() })
      .where('name', '=', 'integrations.deliver')
      .where('failed_at', 'is', null)
      .execute();
    await receiver.received(before + 1);
  }

  test('a subscribed event becomes a message delivered with the envelope and the Authorization header', async () => {
    const receiver = await startReceiver();
    const integration = await app.services.integrations.create(ops, {
      key: 'crm',
      name: 'CRM',
      url: `${receiver.url}/inbound`,
      events: ['enrollment.created'],
      auth_header: 'Bearer crm-secret-token-0123456789',
    });
    assert.equal(integration.auth_header, 'Bearer ****6789', 'the credential is masked');

    const event = await emit('enrollment.created', { enrolment_id: 11 });
    await emit('certificate.issued', { certificate_id: 1 });
    const [request] = await receiver.received(1);
    assert.equal(request?.path, '/inbound');
    assert.equal(request?.headers.authorization, 'Bearer crm-secret-token-0123456789');
    assert.equal(request?.headers['content-type'], 'application/json');
    assert.equal(request?.headers['academy-event-id'], event.id);
    assert.deepEqual(JSON.parse(request?.body ?? ''), { ...event, payload: { enrolment_id: 11 } });

    const listed = await onlyMessage('crm');
    const message = await messageWhen(listed.id, (m) => m.status === 'delivered', 'delivery');
    assert.deepEqual(Object.keys(message).sort(), [
      'attempts',
      'created_at',
      'delivered_at',
      'event_id',
      'event_type',
      'failed_at',
      'id',
      'integration_key',
      'last_error',
      'last_status_code',
      'max_attempts',
      'payload',
      'status',
      'updated_at',
    ]);
    assert.equal(message.integration_key, 'crm');
    assert.equal(message.event_id, event.id);
    assert.equal(message.event_type, 'enrollment.created');
    assert.equal(message.attempts, 1);
    assert.equal(message.max_attempts, 5);
    assert.equal(message.last_status_code, 200);
    assert.ok(message.delivered_at);
    assert.equal(message.failed_at, null);
    assert.deepEqual(message.payload, JSON.parse(request?.body ?? ''));
    assert.equal(receiver.requests.length, 1, 'the unsubscribed certificate.issued event was not sent');
  });

  test('a message that fails every attempt ends failed; a retry through the API delivers it once the receiver recovers', async () => {
    const receiver = await startReceiver();
    await app.services.integrations.create(ops, { key: 'erp', name: 'ERP', url: receiver.url, events: ['course.published'] });
    receiver.reply({ status: 503, body: 'maintenance' });
    await emit('course.published', { course: 'first-aid' });
    await receiver.received(1);
    const { id } = await onlyMessage('erp');

    const waiting = await messageWhen(id, (m) => m.attempts === 1 && m.status === 'queued', 'the first failure');
    assert.equal(waiting.last_status_code, 503);
    assert.equal(waiting.last_error, 'HTTP 503: maintenance');
    const early = await retry(id);
    assert.equal(early.statusCode, 409, 'a queued message is not retryable');
    assert.equal(early.json().code, 'not_retryable');
    assert.match(early.json().message, /only a failed message can be retried; this message is queued/i);

    for (let attempt = 2; attempt <= 5; attempt++) await nextAttempt(receiver);
    const failed = await messageWhen(id, (m) => m.status === 'failed', 'the message to fail');
    assert.equal(failed.attempts, 5);
    assert.ok(failed.failed_at);
    assert.equal(failed.delivered_at, null);
    assert.equal(receiver.requests.length, 5);
    await eventually(
      async () =>
        (await app.platform.events.listByType('job.failed')).some((e) => JSON.parse(e.payload).job_name === 'integrations.deliver'),
      { what: 'the exhausted delivery job to be reported as job.failed' },
    );

    receiver.reply({ status: 202 });
    const res = await retry(id);
    assert.equal(res.statusCode, 202);
    const queued = res.json().data;
    assert.equal(queued.id, id);
    assert.equal(queued.status, 'queued');
    assert.equal(queued.attempts, 0);
    assert.equal(queued.failed_at, null);

    const delivered = await messageWhen(id, (m) => m.status === 'delivered', 'the retried message to be delivered');
    assert.equal(delivered.attempts, 1);
    assert.equal(delivered.last_status_code, 202);
    assert.equal(delivered.last_error, null);
    assert.equal(receiver.requests.length, 6);

    const again = await retry(id);
    assert.equal(again.statusCode, 409, 'a delivered message is not retryable');
    assert.equal(again.json().code, 'not_retryable');
  });

  test('a disabled integration gets nothing: its queued message fails unsent and a retry is refused until it is enabled', async () => {
    const receiver = await startReceiver();
    const service = app.services.integrations;
    await service.create(ops, { key: 'hr', name: 'HR', url: receiver.url, events: ['course.archived'] });
    receiver.reply({ status: 503 });
    await emit('course.archived', { course: 'welding' });
    await receiver.received(1);
    const { id } = await onlyMessage('hr');
    await messageWhen(id, (m) => m.attempts === 1 && m.status === 'queued', 'the first failure');

    assert.equal((await service.setEnabled(ops, 'hr', false)).enabled, false);
    receiver.reply({ status: 200 });
    // The scheduled retry runs now: it must not deliver to the disabled integration.
    const db = app.platform.database.db;
    await eventually(
      async () => {
        const jobs = await db
          .selectFrom('jobs')
          .selectAll()
          .where('name', '=', 'integrations.deliver')
          .where('failed_at', 'is', null)
          .execute();
        return jobs.length > 0 && jobs.every((job) => job.locked_at === null);
      },
      { what: 'the retry to be scheduled' },
    );
    await db
      .updateTable('jobs')
      .set({ run_at: new Date().toISOString() })
      .where('name', '=', 'integrations.deliver')
      .where('failed_at', 'is', null)
      .execute();
    const failed = await messageWhen(id, (m) => m.status === 'failed', 'the message of the disabled integration to fail');
    assert.match(failed.last_error, /^The integration "hr" is disabled; the message was not sent\./);
    assert.equal(failed.attempts, 1, 'no attempt was made');
    assert.ok(failed.failed_at);

    const refused = await retry(id);
    assert.equal(refused.statusCode, 409);
    assert.equal(refused.json().code, 'not_retryable');
    assert.match(refused.json().message, /The integration "hr" is disabled; enable it before retrying its messages\./);
    assert.equal((await get(`/api/v1/integrations/${id}`)).json().data.status, 'failed', 'the refused retry changed nothing');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(receiver.requests.length, 1, 'nothing was sent after the integration was disabled');

    await service.setEnabled(ops, 'hr', true);
    assert.equal((await retry(id)).statusCode, 202);
    await messageWhen(id, (m) => m.status === 'delivered', 'the retried message to be delivered');
    assert.equal(receiver.requests.length, 2);
    await assert.rejects(service.setEnabled(ops, 'nope', false), { code: 'not_found' });
  });

  test('a missing or malformed message id is a 404 for both read and retry', async () => {
    for (const id of ['999999', 'abc', '0', '-1', '1.5', '99999999999']) {
      const read = await get(`/api/v1/integrations/${id}`);
      assert.equal(read.statusCode, 404, id);
      assert.deepEqual(read.json(), { message: 'The requested resource was not found.', code: 'not_found' });
      assertError(await retry(id), 404, 'not_found', id);
    }
  });

  test('the list filters by integration key and status, in id order unless sorted otherwise, paginated; an unknown status is a 422', async () => {
    const receiver = await startReceiver();
    const service = app.services.integrations;
    await service.create(ops, { key: 'lms-a', name: 'LMS A', url: receiver.url, events: ['course_intake.completed'] });
    await service.create(ops, { key: 'lms-b', name: 'LMS B', url: `${receiver.url}/b`, events: ['course_intake.completed'] });
    receiver.reply((request) => ({ status: request.path === '/b' ? 500 : 200 }));
    // One event at a time, each message made before the next event: "newest" is the order the
    // messages were made in, which a worker fanning out several events at once does not promise.
    for (let i = 1; i <= 3; i++) {
      await emit('course_intake.completed', { intake: i });
      await eventually(async () => ((await get('/api/v1/integrations?integration_key=lms-a')).json().meta.total === i ? true : null), {
        what: `the lms-a message of event ${i}`,
      });
    }
    await receiver.received(6);

    const a = await eventually(
      async () => {
        const body = (await get('/api/v1/integrations?integration_key=lms-a&status=delivered')).json();
        // The page and its total are read side by side: both must have seen the third delivery.
        return body.meta.total === 3 && body.data.length === 3 ? body : null;
      },
      { what: 'three delivered lms-a messages' },
    );
    assert.ok(a.data.every((m: { integration_key: string; status: string }) => m.integration_key === 'lms-a' && m.status === 'delivered'));
    const intakes = (body: { data: { payload: { payload: { intake: number } } }[] }) => body.data.map((m) => m.payload.payload.intake);
    // The contract's default order, id ascending, as for every list: pages stay put while messages are added.
    assert.deepEqual(intakes(a), [1, 2, 3], 'id order by default');
    assert.deepEqual(
      a.data.map((m: { id: number }) => m.id),
      [...a.data.map((m: { id: number }) => m.id)].sort((x: number, y: number) => x - y),
    );
    for (const query of ['direction=desc', 'sort=id&direction=desc', 'sort=created_at&direction=desc']) {
      const newest = (await get(`/api/v1/integrations?integration_key=lms-a&status=delivered&${query}`)).json();
      assert.deepEqual(intakes(newest), [3, 2, 1], `newest first with ${query}`);
    }

    const b = (await get('/api/v1/integrations?integration_key=lms-b')).json();
    assert.equal(b.meta.total, 3);
    assert.ok(b.data.every((m: { integration_key: string }) => m.integration_key === 'lms-b'));
    const noneDelivered = (await get('/api/v1/integrations?integration_key=lms-b&status=delivered')).json();
    assert.equal(noneDelivered.meta.total, 0);

    const paged = await get('/api/v1/integrations?integration_key=lms-a&per_page=2&page=2');
    assert.equal(paged.statusCode, 200);
    const body = paged.json();
    assert.equal(body.data.length, 1);
    assert.equal(body.meta.current_page, 2);
    assert.equal(body.meta.last_page, 2);
    assert.equal(body.meta.total, 3);
    assert.match(String(paged.headers.link), /rel="first"/);

    const bad = await get('/api/v1/integrations?status=sent');
    assert.equal(bad.statusCode, 422);
    assert.equal(bad.json().code, 'validation_failed');
    assert.deepEqual(bad.json().errors.status, ['The status field must be one of: queued, delivering, delivered, failed.']);
    assertError(await get('/api/v1/integrations?per_page=0'), 422, 'validation_failed');
  });

  test('scopes: 401 without a token, 403 without the scope, read scope cannot retry', async () => {
    const none = await app.http.inject({ method: 'GET', url: '/api/v1/integrations' });
    assert.equal(none.statusCode, 401);
    assert.equal(none.json().code, 'unauthenticated');
    const noRetry = await app.http.inject({ method: 'POST', url: '/api/v1/integrations/1/retry' });
    assert.equal(noRetry.statusCode, 401);
    assert.equal(noRetry.json().code, 'unauthenticated');

    const other = await app.token(['organization:read']);
    const forbidden = await get('/api/v1/integrations', other);
    assert.equal(forbidden.statusCode, 403);
    assert.equal(forbidden.json().code, 'insufficient_scope');
    assertError(await get('/api/v1/integrations/1', other), 403, 'insufficient_scope');

    const readOnly = await retry(1, reader);
    assert.equal(readOnly.statusCode, 403);
    assert.equal(readOnly.json().code, 'insufficient_scope');
    assert.match(String(readOnly.headers['www-authenticate']), /scope="integration-messages:write"/);
  });

  test('integration creation validates every field', async () => {
    const service = app.services.integrations;
    // As `academy admin integrations create` checks its --data, before the service.
    assert.throws(
      () =>
        validateInput(IntegrationCreate, {
          key: 'Not A Slug',
          name: '',
          url: 'ftp://x',
          events: ['enrollment.created', 'nope'],
          auth_header: 'a\r\nX-Evil: 1',
          extra: 1,
        }),
      (error: { code: string; details: Record<string, string[]> }) => {
        assert.equal(error.code, 'validation_failed');
        assert.deepEqual(Object.keys(error.details).sort(), ['auth_header', 'events.1', 'extra', 'key', 'name', 'url']);
        assert.match(error.details['events.1']?.[0] ?? '', /^The events\.1 field must be one of: enrollment\.created, /);
        return true;
      },
    );
    assert.throws(() => validateInput(IntegrationCreate, { key: 'crm', name: 'CRM', url: ' https://crm.example.org/' }), {
      details: { url: ['The url field must be an http or https URL, e.g. https://crm.example.org/events.'] },
    });
    await assert.rejects(service.create(ops, { key: 'lan', name: 'LAN', url: 'http://user:pw@example.org/' }), {
      details: { url: ['The URL must not contain credentials.'] },
    });
    await service.create(ops, { key: 'dup', name: 'Dup', url: 'http://127.0.0.1:9/', events: ['alert.sent'] });
    await assert.rejects(service.create(ops, { key: 'dup', name: 'Dup 2', url: 'http://127.0.0.1:9/' }), {
      details: { key: ['An integration with the key "dup" already exists.'] },
    });
  });

  test('the OpenAPI document describes the three operations', async () => {
    const doc = app.http.swagger() as unknown as {
      paths: Record<string, Record<string, { operationId: string; tags: string[]; responses: object }>>;
    };
    const list = doc.paths['/api/v1/integrations']?.get;
    const one = doc.paths['/api/v1/integrations/{message}']?.get;
    const retryOp = doc.paths['/api/v1/integrations/{message}/retry']?.post;
    assert.equal(list?.operationId, 'listIntegrationMessages');
    assert.equal(one?.operationId, 'getIntegrationMessage');
    assert.equal(retryOp?.operationId, 'retryIntegrationMessage');
    assert.deepEqual(retryOp?.tags, ['Integrations']);
    assert.ok('202' in (retryOp?.responses ?? {}) && '409' in (retryOp?.responses ?? {}));
  });
});
