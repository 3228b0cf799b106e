import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { Worker } from '../../src/platform/jobs/worker.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { jsonError, runCli } from '../support/cli.ts';
import { eventually } from '../support/eventually.ts';
import { createTestPlatform } from '../support/platform.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

// Made at the top level: it closes itself when the file's tests end (not when a hook ends).
const receiver: Receiver = await startReceiver();

describe('academy admin webhooks test / redeliver', () => {
  let platform: Platform;
  let worker: Worker | undefined;
  let endpointId: number;
  let secret: string;

  const env = () => ({
    DATABASE_URL: platform.config.databaseUrl,
    ACADEMY_DATA_DIR: platform.config.dataDir,
    ACADEMY_ALLOW_PRIVATE_TARGETS: 'true',
  });
  const academy = (args: string[]) => runCli(args, env());
  async function json(args: string[]) {
    const result = await academy(['--json', ...args]);
    assert.equal(result.code, 0, result.stderr);
    return JSON.parse(result.stdout);
  }
  /** The delivery as `academy webhooks deliveries` shows it. */
  async function delivery(id: number) {
    return ((await json(['webhooks', 'deliveries', String(endpointId)])) as { id: number; status: string; attempts: number }[]).find(
      (d) => d.id === id,
    );
  }
  /** The received request, checked with the endpoint's secret as a receiver would: its verified body. */
  function verified(index: number) {
    const request = receiver.requests[index];
    assert.ok(request);
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    return new Webhook(secret).verify(request.body, headers) as { id: string; type: string; payload: Record<string, unknown> };
  }

  before(async () => {
    platform = await createTestPlatform({ env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true' } });
    const created = await json(['webhooks', 'create', '--url', `${receiver.url}/hooks`, '--events', 'enrollment.created']);
    endpointId = created.id;
    secret = created.secret;
    worker = platform.createWorker({ pollMs: 20 });
    await worker.start();
  });
  after(() => worker?.stop(2000));

  test('test queues a signed ping to that endpoint alone; a worker sends it at once', async () => {
    const other = await json(['webhooks', 'create', '--url', `${receiver.url}/other`]);
    const queued = await json(['admin', 'webhooks', 'test', String(endpointId)]);
    assert.equal(queued.endpoint_id, endpointId);
    assert.equal(queued.event_type, 'ping');
    assert.equal(queued.status, 'pending');
    assert.equal(queued.attempts, 0);
    assert.match(queued.event_id, /^evt_/);

    await receiver.received(1);
    const event = verified(0);
    assert.equal(receiver.requests[0]?.path, '/hooks');
    assert.equal(receiver.requests[0]?.headers['webhook-id'], queued.event_id);
    assert.equal(event.id, queued.event_id);
    assert.equal(event.type, 'ping');
    assert.deepEqual(event.payload, { endpoint_id: endpointId });
    await eventually(async () => (await delivery(queued.id))?.status === 'succeeded', { what: 'the ping to succeed' });
    assert.equal((await delivery(queued.id))?.attempts, 1);
    assert.equal(receiver.requests.length, 1, 'a ping is not fanned out to the other endpoint');
    await json(['webhooks', 'delete', String(other.id)]);

    const text = await academy(['admin', 'webhooks', 'test', String(endpointId)]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /A ping to endpoint \d+ queued as delivery \d+ \(webhook-id evt_[\w-]+\)/);
    await receiver.received(2);
  });

  test('redeliver sends a failed delivery again with the same webhook-id and body, and counts the attempt', async () => {
    const before = receiver.requests.length;
    receiver.reply({ status: 500, body: 'down' });
    const queued = await json(['admin', 'webhooks', 'test', String(endpointId)]);
    await eventually(async () => (await delivery(queued.id))?.status === 'failed', { what: 'the one attempt to fail' });
    const first = receiver.requests[before];
    assert.ok(first);

    receiver.reply({ status: 204 });
    const again = await json(['admin', 'webhooks', 'redeliver', String(queued.id)]);
    assert.equal(again.id, queued.id);
    assert.equal(again.status, 'pending');
    assert.equal(again.attempts, 1);
    await receiver.received(before + 2);
    const second = receiver.requests[before + 1];
    assert.ok(second);
    assert.equal(second.headers['webhook-id'], first.headers['webhook-id']);
    assert.equal(second.body, first.body);
    assert.equal(verified(before + 1).id, queued.event_id, 'the new attempt is signed afresh and verifies');
    await eventually(async () => (await delivery(queued.id))?.status === 'succeeded', { what: 'the redelivery to succeed' });
    assert.equal((await delivery(queued.id))?.attempts, 2);

    // A succeeded delivery may be sent again too (a receiver that lost it).
    await json(['admin', 'webhooks', 'redeliver', String(queued.id)]);
    await receiver.received(before + 3);
    assert.equal(receiver.requests[before + 2]?.body, first.body);
    await eventually(async () => (await delivery(queued.id))?.attempts === 3, { what: 'the third attempt to be recorded' });
  });

  test('refusals: a delivery or endpoint that does not exist, a delivery still pending, a disabled endpoint', async () => {
    for (const args of [
      ['admin', 'webhooks', 'redeliver', '999999'],
      ['admin', 'webhooks', 'redeliver', 'abc'],
      ['admin', 'webhooks', 'test', '999999'],
    ]) {
      const result = await academy(['--json', ...args]);
      assert.equal(result.code, 1, args.join(' '));
      assert.match(jsonError(result.stderr), /^not_found:/);
    }

    // Held pending: the worker is not given a chance to send it before the redelivery is asked for.
    const pending = await platform.database.db.transaction().execute(async (trx) => {
      const id = (
        await trx.selectFrom('webhook_deliveries').select('id').where('status', '=', 'succeeded').orderBy('id').executeTakeFirstOrThrow()
      ).id;
      await trx.updateTable('webhook_deliveries').set({ status: 'pending' }).where('id', '=', id).execute();
      return id;
    });
    const refused = await academy(['--json', 'admin', 'webhooks', 'redeliver', String(pending)]);
    assert.equal(refused.code, 1);
    assert.match(jsonError(refused.stderr), /^invalid_transition: Cannot redeliver from pending/);

    await platform.database.db.updateTable('webhook_endpoints').set({ enabled: false, disabled_reason: 'testing' }).execute();
    const disabled = await academy(['--json', 'admin', 'webhooks', 'test', String(endpointId)]);
    assert.equal(disabled.code, 1);
    assert.match(jsonError(disabled.stderr), /^conflict: Webhook endpoint \d+ is disabled \(testing\)/);
  });
});
