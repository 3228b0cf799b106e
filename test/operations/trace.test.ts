import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import { buildApp } from '../../src/assembly/app.ts';
import { fixtures } from '../support/fixtures.ts';
import { bearer, createTestAssembly } from '../support/platform.ts';
import { startReceiver } from '../support/receiver.ts';

test('a request id is followed from a POST into the jobs it queued and the webhook they sent; each request is one access-log line', async () => {
  const assembly = await createTestAssembly({ env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true' } });
  const { platform } = assembly;
  const lines: Record<string, unknown>[] = [];
  // The platform's logger, writing JSON lines here: what `academy serve` writes to stdout.
  (platform as { logger: pino.Logger }).logger = pino(
    { level: 'info', base: undefined },
    { write: (line: string) => lines.push(JSON.parse(line)) },
  );
  const app = await buildApp(assembly, { logRequests: true });
  const receiver = await startReceiver();
  await fixtures(platform).webhookEndpoint({ url: `${receiver.url}/hooks`, events: JSON.stringify(['export.completed']) });
  const token = (await platform.tokens.create({ name: 'trace', scopes: ['reports:write'] })).token;

  const requestId = 'trace-4f2a9c';
  const res = await app.http.inject({
    method: 'POST',
    url: '/api/v1/reports',
    headers: { ...bearer(token), 'content-type': 'application/json', 'x-request-id': requestId },
    payload: { type: 'session_capacity' },
  });
  assert.equal(res.statusCode, 202, res.body);
  assert.equal(res.headers['x-request-id'], requestId);

  const queued = await platform.database.db.selectFrom('jobs').select(['name', 'request_id']).orderBy('id').execute();
  assert.deepEqual(
    queued.map((job) => [job.name, job.request_id]),
    [
      ['events.dispatch', requestId],
      ['reports.generate', requestId],
    ],
  );

  const worker = platform.createWorker({ pollMs: 20 });
  await worker.start();
  try {
    const [delivered] = await receiver.received(1, 15_000);
    assert.equal(delivered?.headers['academy-request-id'], requestId, 'the webhook names the request that started it');
    assert.equal(JSON.parse(delivered?.body ?? '{}').type, 'export.completed');
  } finally {
    await worker.stop();
  }

  const access = lines.filter((line) => line.msg === 'request');
  assert.equal(access.length, 1);
  const [line] = access;
  assert.equal(line?.reqId, requestId);
  assert.equal(line?.method, 'POST');
  assert.equal(line?.route, '/api/v1/reports');
  assert.equal(line?.status, 202);
  assert.equal(typeof line?.ms, 'number');
  assert.equal(typeof line?.tokenId, 'number');
  assert.equal(line?.level, 30, 'at info');
  assert.ok(!JSON.stringify(lines).includes(token), 'the token is never logged');
  await app.http.close();
});
