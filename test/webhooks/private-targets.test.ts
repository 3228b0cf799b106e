import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import { systemClock } from '../../src/platform/clock.ts';
import { operatorContext } from '../../src/platform/context.ts';
import type { EventType } from '../../src/platform/events/types.ts';
import { createOutbound, nonPublicKind, retryAfterMs, TargetRefusedError } from '../../src/platform/outbound.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { eventually } from '../support/eventually.ts';
import { fixtures } from '../support/fixtures.ts';
import { createTestAssembly } from '../support/platform.ts';
import { startReceiver } from '../support/receiver.ts';

/** The operator's context, as the `academy` command passes it. */
const ops = operatorContext({ clock: systemClock, logger: pino({ level: 'silent' }) });

function emit(platform: Platform, type: EventType, payload: Record<string, unknown>) {
  return platform.database.db.transaction().execute((trx) => platform.outbox.emit(trx, type, payload));
}

const PRIVATE_URLS: [string, RegExp][] = [
  ['http://127.0.0.1/hook', /127\.0\.0\.1 is a loopback address/],
  ['http://10.0.0.1/', /10\.0\.0\.1 is a private address/],
  ['http://192.168.1.20:8080/in', /private/],
  ['http://172.20.0.5/', /private/],
  ['http://169.254.169.254/latest/meta-data', /link-local/],
  ['http://localhost:8080/', /localhost is a loopback address/],
  ['http://[::1]/', /loopback/],
  ['http://[::ffff:127.0.0.1]/', /loopback/],
  ['http://[fd00::1]/', /unique-local/],
  ['http://[fe80::1]/', /link-local/],
  ['http://224.0.0.1/', /multicast/],
  ['http://0.0.0.0/', /unspecified/],
  ['http://[::]/', /unspecified/],
  ['http://100.64.0.1/', /shared \(carrier-grade NAT\)/],
  ['http://[::ffff:0:7f00:1]/', /loopback/],
  ['http://[64:ff9b::7f00:1]/', /loopback/],
  ['http://[64:ff9b:1::7f00:1]/', /local-use NAT64/],
  ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', /Teredo tunnel/],
  ['http://[2002:7f00:1::1]/', /loopback/],
  ['http://192.88.99.1/', /reserved/],
  ['http://[::7f00:1]/', /reserved/],
];

describe('private targets (ACADEMY_ALLOW_PRIVATE_TARGETS unset)', () => {
  test('a webhook endpoint on a loopback, private, link-local, unique-local or multicast address is refused clearly', async () => {
    const { services } = await createTestAssembly();
    const webhooks = services.webhooks;
    for (const [url, reason] of PRIVATE_URLS) {
      await assert.rejects(webhooks.create(ops, { url }), (error: { code: string; details: Record<string, string[]> }) => {
        assert.equal(error.code, 'validation_failed', url);
        const [message] = error.details.url ?? [];
        assert.match(message ?? '', reason, url);
        assert.match(message ?? '', /ACADEMY_ALLOW_PRIVATE_TARGETS=true/);
        return true;
      });
    }
    await assert.rejects(webhooks.create(ops, { url: 'ftp://example.org/x' }), { details: { url: ['The URL must use http or https.'] } });
    await assert.rejects(webhooks.create(ops, { url: 'https://user:pw@93.184.215.14/' }), {
      details: { url: ['The URL must not contain credentials.'] },
    });
    await assert.rejects(webhooks.create(ops, { url: 'not a url' }), { details: { url: ['The URL is not a valid absolute URL.'] } });
    assert.deepEqual(await webhooks.list(ops), [], 'nothing was stored');

    const accepted = await webhooks.create(ops, { url: 'https://93.184.215.14/hooks' });
    assert.equal(accepted.endpoint.url, 'https://93.184.215.14/hooks');
  });

  test('an integration on 127.0.0.1 or 10.0.0.1 is refused clearly', async () => {
    const { services } = await createTestAssembly();
    const integrations = services.integrations;
    for (const url of ['http://127.0.0.1/crm', 'http://10.0.0.1/']) {
      await assert.rejects(integrations.create(ops, { key: 'crm', name: 'CRM', url }), (error: { details: Record<string, string[]> }) => {
        assert.match(error.details.url?.[0] ?? '', /is a (loopback|private) address; only public addresses are allowed/);
        return true;
      });
    }
    assert.deepEqual(await integrations.listIntegrations(ops), []);
  });

  test('delivery re-checks the address: a host that now resolves to a private address gets nothing and fails at once', async () => {
    const { platform, services } = await createTestAssembly();
    const receiver = await startReceiver();
    const port = new URL(receiver.url).port;
    // Endpoints stored while their names resolved to public addresses; "localhost" stands for a name
    // whose DNS now points at a loopback address (DNS rebinding).
    const db = platform.database.db;
    // Written straight to the database: the API refuses these targets, as the test above shows.
    const make = fixtures(platform);
    const endpoint = await make.webhookEndpoint({ url: `http://localhost:${port}/` });
    await make.integration({ key: 'crm', url: `http://localhost:${port}/crm` });
    const worker = platform.createWorker({ pollMs: 50 });
    await worker.start();
    try {
      await emit(platform, 'enrollment.created', { enrolment_id: 1 });
      // A refusal is permanent: no retry is scheduled, the delivery and the message fail after one attempt.
      const [delivery] = await eventually(
        async () => {
          const list = await services.webhooks.deliveries(ops, endpoint.id);
          return list[0]?.status === 'failed' ? list : null;
        },
        { what: 'the refused delivery to fail' },
      );
      assert.equal(delivery?.attempts, 1);
      assert.equal(delivery?.next_attempt_at, null);
      assert.equal(delivery?.last_status_code, null);
      assert.match(delivery?.last_error ?? '', /The host localhost resolves to a loopback address;/);
      assert.doesNotMatch(delivery?.last_error ?? '', /127\.0\.0\.1|::1/, 'the resolved address is not shown');
      const message = await eventually(
        async () => {
          const page = await services.integrations.listMessages(
            ops,
            {},
            { page: { page: 1, perPage: 15, offset: 0 }, sort: 'created_at', direction: 'desc' },
          );
          return page.items[0]?.status === 'failed' ? page.items[0] : null;
        },
        { what: 'the refused integration message to fail' },
      );
      assert.equal(message.attempts, 1);
      assert.ok(message.failed_at);
      assert.match(message.last_error ?? '', /localhost resolves to a loopback address/);
      // The job is closed just after its handler recorded the failure: wait for that too.
      const jobs = await eventually(
        async () => {
          const rows = await db.selectFrom('jobs').select(['name', 'attempts', 'failed_at']).orderBy('name').execute();
          return rows.filter((j) => j.name !== 'events.dispatch').every((j) => j.failed_at) ? rows : null;
        },
        { what: 'the refused jobs to be closed as failed' },
      );
      for (const job of jobs.filter((j) => j.name !== 'events.dispatch')) {
        assert.equal(job.attempts, 1, `${job.name} was not retried`);
        assert.ok(job.failed_at, `${job.name} failed at once`);
      }
      assert.equal(receiver.requests.length, 0, 'no request reached the private address');
    } finally {
      await worker.stop(1000);
    }
  });

  test('the outbound port refuses private targets unless allowed', async () => {
    const receiver = await startReceiver();
    const port = new URL(receiver.url).port;
    const strict = createOutbound({ timeoutMs: 2000, allowPrivateTargets: false });
    for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`, `http://[::ffff:7f00:1]:${port}/`]) {
      await assert.rejects(strict.post(url, '{}', {}), TargetRefusedError, url);
    }
    assert.equal(receiver.requests.length, 0);
    const open = createOutbound({ timeoutMs: 2000, allowPrivateTargets: true });
    const response = await open.post(`http://localhost:${port}/x`, '{"a":1}', { 'content-type': 'application/json' });
    assert.equal(response.status, 200);
    assert.equal(receiver.requests[0]?.body, '{"a":1}');
    assert.equal(await open.targetProblem('http://10.0.0.1/'), null);
    assert.match((await strict.targetProblem('http://10.0.0.1/')) ?? '', /private/);
  });

  test('the address connected to is checked: a kept-alive connection to a private address is not reused', async () => {
    const receiver = await startReceiver();
    const port = new URL(receiver.url).port;
    // A connection opened while private targets were allowed stays open (keep-alive) in the shared
    // agent; a strict request to the same host would reuse it without any DNS lookup.
    const open = createOutbound({ timeoutMs: 2000, allowPrivateTargets: true });
    assert.equal((await open.post(`http://localhost:${port}/open`, '{}', {})).status, 200);
    const strict = createOutbound({ timeoutMs: 2000, allowPrivateTargets: false });
    await assert.rejects(strict.post(`http://localhost:${port}/strict`, '{}', {}), (error: Error) => {
      assert.ok(error instanceof TargetRefusedError, String(error));
      assert.match(error.message, /The host localhost resolves to a loopback address/);
      return true;
    });
    assert.deepEqual(
      receiver.requests.map((r) => r.path),
      ['/open'],
      'the strict request never reached the loopback receiver',
    );
  });
});

describe('address classification and Retry-After', () => {
  test('non-public ranges are recognised, including IPv4 embedded in IPv6', () => {
    const cases: [string, string | null][] = [
      ['8.8.8.8', null],
      ['93.184.215.14', null],
      ['2606:4700:4700::1111', null],
      ['10.1.2.3', 'private'],
      ['172.31.255.255', 'private'],
      ['172.32.0.1', null],
      ['192.168.0.1', 'private'],
      ['100.64.1.1', 'shared (carrier-grade NAT)'],
      ['127.8.8.8', 'loopback'],
      ['169.254.169.254', 'link-local'],
      ['239.255.255.250', 'multicast'],
      ['255.255.255.255', 'reserved'],
      ['::1', 'loopback'],
      ['::', 'unspecified'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:10.0.0.1', 'private'],
      ['::ffff:8.8.8.8', null],
      ['64:ff9b::a00:1', 'private'],
      ['2002:c0a8:101::1', 'private'],
      ['fe80::1%eth0', 'link-local'],
      ['fd12:3456::1', 'unique-local'],
      ['ff02::1', 'multicast'],
      ['::ffff:0:7f00:1', 'loopback'],
      ['::ffff:0:808:808', null],
      ['64:ff9b::808:808', null],
      ['64:ff9b:1::7f00:1', 'local-use NAT64'],
      ['64:ff9b:1::808:808', 'local-use NAT64'],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo tunnel'],
      ['2002:808:808::1', null],
      ['192.88.99.1', 'reserved'],
      ['192.0.0.170', 'reserved'],
      ['198.18.0.1', 'reserved'],
      ['::7f00:1', 'reserved'],
      ['1::1', 'reserved'],
      ['2001:db8::1', 'reserved'],
      ['not-an-address', 'invalid'],
    ];
    for (const [address, kind] of cases) assert.equal(nonPublicKind(address), kind, address);
  });

  test('Retry-After is read as seconds or an HTTP date, capped at 24 hours', () => {
    const now = new Date('2026-03-01T12:00:00.000Z');
    assert.equal(retryAfterMs('120', now), 120_000);
    assert.equal(retryAfterMs(' 0 ', now), 0);
    assert.equal(retryAfterMs('Sun, 01 Mar 2026 12:10:00 GMT', now), 600_000);
    assert.equal(retryAfterMs('Sun, 01 Mar 2026 11:00:00 GMT', now), 0, 'a date in the past means now');
    assert.equal(retryAfterMs('999999999', now), 24 * 3_600_000);
    assert.equal(retryAfterMs('soon', now), null);
    assert.equal(retryAfterMs('-5', now), null);
    assert.equal(retryAfterMs(undefined, now), null);
  });
});
