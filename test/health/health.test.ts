import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { describe, test } from 'node:test';
import { healthModule } from '../../src/modules/health/module.ts';
import { schedulerFor } from '../../src/modules/tasks/scheduler.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { redisSkipReason, redisUrl } from '../support/env.ts';
import { assertError } from '../support/errors.ts';
import { eventually } from '../support/eventually.ts';
import { bearer, createTestApp, createTestAssembly, type TestApp } from '../support/platform.ts';

const CHECKS = ['database', 'disk', 'mail', 'queue', 'scheduler', 'storage'];
const FIELDS = ['component_type', 'name', 'observed_unit', 'observed_value', 'output', 'status', 'time'];

const redisUp = (await redisSkipReason('the Redis health check')) === false;

/** A TCP server that accepts connections and never says a word: an SMTP server that hangs. */
async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

async function withHeartbeat(platform: Platform): Promise<void> {
  await schedulerFor(platform).tick();
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe('health checks', () => {
  test('a healthy setup answers 200 with every check pass or warn, and records each status', async () => {
    const app = await createTestApp({ env: redisUp ? { REDIS_URL: redisUrl } : {} });
    // On a loaded machine the first connection attempt may time out; ioredis tries again.
    const redis = app.platform.redis;
    if (redis) await eventually(() => redis.status === 'ready', { what: 'the Redis connection', timeoutMs: 20_000 });
    await withHeartbeat(app.platform);
    const token = await app.token(['health:read']);
    const res = await app.http.inject({ method: 'GET', url: '/api/v1/health', headers: bearer(token) });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    const { data } = res.json();
    const names = data.checks.map((c: { name: string }) => c.name).sort();
    assert.deepEqual(names, redisUp ? [...CHECKS, 'redis'].sort() : CHECKS);
    for (const check of data.checks) {
      assert.deepEqual(Object.keys(check).sort(), FIELDS, check.name);
      assert.ok(['pass', 'warn'].includes(check.status), `${check.name}: ${check.status} ${check.output}`);
      assert.equal(new Date(check.time).toISOString(), check.time);
    }
    assert.ok(['pass', 'warn'].includes(data.status));
    const byName = Object.fromEntries(data.checks.map((c: { name: string }) => [c.name, c]));
    // The round trip passes below 100 ms and warns from there (1 s fails): beside CI's other suite on
    // two cores, PostgreSQL once took longer, so the status is checked against the time it reports.
    assert.equal(byName.database.status, byName.database.observed_value < 100 ? 'pass' : 'warn', byName.database.output ?? '');
    assert.equal(byName.database.observed_unit, 'ms');
    assert.equal(byName.database.component_type, 'datastore');
    assert.equal(byName.scheduler.status, 'pass', 'a scheduler has just recorded its heartbeat');
    assert.equal(byName.storage.status, 'pass');
    assert.equal(byName.mail.status, 'pass');
    assert.equal(byName.disk.observed_unit, '%');
    assert.ok(!JSON.stringify(data).includes(app.platform.config.dataDir), 'no server path reaches the client');

    const rows = await app.platform.database.db.selectFrom('health_checks').select(['name', 'last_status', 'last_checked_at']).execute();
    for (const check of data.checks) {
      const row = rows.find((r) => r.name === check.name);
      assert.equal(row?.last_status, check.status, check.name);
      assert.equal(row?.last_checked_at, check.time, check.name);
    }
  });

  describe('one check by name', () => {
    let app: TestApp;
    let token: string;
    const get = (url: string) => app.http.inject({ method: 'GET', url, headers: bearer(token) });

    test('runs one check; unknown names and Redis without REDIS_URL are 404', async () => {
      app = await createTestApp();
      token = await app.token(['health:read']);
      const res = await get('/api/v1/health/database');
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().data.name, 'database');
      assert.equal(res.json().data.status, 'pass');
      for (const name of ['nope', 'redis', 'x'.repeat(80)]) {
        const missing = await get(`/api/v1/health/${name}`);
        assert.equal(missing.statusCode, 404, name);
        assert.equal(missing.json().code, 'not_found');
      }
      const all = await get('/api/v1/health');
      assert.ok(!all.json().data.checks.some((c: { name: string }) => c.name === 'redis'), 'Redis is left out when not configured');
    });

    test('the scheduler check warns before any scheduler ran, and a warn overall is still 200', async () => {
      const res = await get('/api/v1/health/scheduler');
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().data.status, 'warn');
      assert.equal(res.json().data.output, 'No scheduler has run yet.');
      const all = await get('/api/v1/health');
      assert.equal(all.statusCode, 200);
      assert.equal(all.json().data.status, 'warn');
    });

    test('the queue check reports the age of the oldest due, unclaimed job against its thresholds', async () => {
      const now = Date.now();
      await app.platform.database.db
        .insertInto('jobs')
        .values({
          name: 'system.noop',
          payload: '{}',
          key: null,
          run_at: new Date(now - 120_000).toISOString(),
          attempts: 0,
          max_attempts: 1,
          created_at: new Date(now - 120_000).toISOString(),
          updated_at: new Date(now - 120_000).toISOString(),
        })
        .execute();
      const res = await get('/api/v1/health/queue');
      assert.equal(res.json().data.status, 'warn', 'older than 60 s');
      assert.equal(res.json().data.observed_unit, 's');
      assert.ok(res.json().data.observed_value >= 120 && res.json().data.observed_value < 130);
      await app.platform.database.db.updateTable('health_checks').set({ fail_threshold: 100 }).where('name', '=', 'queue').execute();
      const failing = await get('/api/v1/health/queue');
      assert.equal(failing.statusCode, 503); // status only: the health report is the body
      assert.equal(failing.json().data.status, 'fail');
    });

    test('needs health:read', async () => {
      const other = await app.token(['tasks:read']);
      const res = await app.http.inject({ method: 'GET', url: '/api/v1/health', headers: bearer(other) });
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().code, 'insufficient_scope');
      assertError(await app.http.inject({ method: 'GET', url: '/api/v1/health/database' }), 401, 'unauthenticated');
    });
  });

  test('Redis down: the redis check fails, the overall status is fail (503) within the timeout, the API keeps working', async () => {
    const app = await createTestApp({ env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    await withHeartbeat(app.platform);
    const token = await app.token(['health:read', 'organization:read']);
    const timeout = (
      await app.platform.database.db.selectFrom('health_checks').select('timeout_ms').where('name', '=', 'redis').executeTakeFirstOrThrow()
    ).timeout_ms;
    const { value: res, ms } = await timed(() => app.http.inject({ method: 'GET', url: '/api/v1/health', headers: bearer(token) }));
    assert.equal(res.statusCode, 503); // status only: the health report is the body
    const { data } = res.json();
    assert.equal(data.status, 'fail');
    const redis = data.checks.find((c: { name: string }) => c.name === 'redis');
    assert.equal(redis.status, 'fail');
    assert.equal(typeof redis.output, 'string');
    assert.ok(ms < 2 * timeout, `answered in ${Math.round(ms)} ms (timeout ${timeout} ms)`);
    assert.ok(
      data.checks.filter((c: { name: string }) => c.name !== 'redis').every((c: { status: string }) => c.status !== 'fail'),
      'only Redis fails',
    );
    const org = await app.http.inject({ method: 'GET', url: '/api/v1/organization', headers: bearer(token) });
    assert.equal(org.statusCode, 200, 'the rest of the API keeps working');
  });

  test('SMTP unreachable: the mail check fails and the overall status is 503 within the timeout', async () => {
    const app = await createTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:1' } });
    const token = await app.token(['health:read', 'organization:read']);
    const { value: res, ms } = await timed(() => app.http.inject({ method: 'GET', url: '/api/v1/health', headers: bearer(token) }));
    assert.equal(res.statusCode, 503); // status only: the health report is the body
    const mail = res.json().data.checks.find((c: { name: string }) => c.name === 'mail');
    assert.equal(mail.status, 'fail');
    assert.match(mail.output, /ECONNREFUSED|connect/i);
    assert.ok(ms < 2 * 5000, `answered in ${Math.round(ms)} ms`);
    const one = await app.http.inject({ method: 'GET', url: '/api/v1/health/mail', headers: bearer(token) });
    assert.equal(one.statusCode, 503); // status only: the health report is the body
    assert.equal((await app.http.inject({ method: 'GET', url: '/api/v1/organization', headers: bearer(token) })).statusCode, 200);
  });

  test('a check that hangs fails with "timed out after N ms" at its own timeout', async (t) => {
    const smtp = await silentServer();
    t.after(() => smtp.close());
    const app = await createTestApp({ env: { SMTP_URL: smtp.url } });
    await app.platform.database.db.updateTable('health_checks').set({ timeout_ms: 500 }).where('name', '=', 'mail').execute();
    const token = await app.token(['health:read']);
    const { value: res, ms } = await timed(() => app.http.inject({ method: 'GET', url: '/api/v1/health', headers: bearer(token) }));
    assert.equal(res.statusCode, 503); // status only: the health report is the body
    const mail = res.json().data.checks.find((c: { name: string }) => c.name === 'mail');
    assert.equal(mail.status, 'fail');
    assert.equal(mail.output, 'timed out after 500 ms');
    // At the row's 500 ms, not the mail check's default 5000 ms: the margin above 500 is for the other
    // checks of the same request on a loaded machine (a fresh-clone run with both suites beside it
    // answered in 1014 ms).
    assert.ok(ms >= 490 && ms < 2500, `answered in ${Math.round(ms)} ms`);
  });

  test('health.run_checks sends alert.sent exactly when the overall status gets worse', async () => {
    const { platform, services } = await createTestAssembly();
    const db = platform.database.db;
    // The disk of the machine running the tests is not part of this test.
    await db.updateTable('health_checks').set({ enabled: false }).where('name', '=', 'disk').execute();
    await withHeartbeat(platform);
    const runChecks = healthModule.tasks['health.run_checks'];
    assert.ok(runChecks);
    const run = () => runChecks({ platform, services, now: new Date(), signal: new AbortController().signal, logger: platform.logger });
    const alerts = async () =>
      (await db.selectFrom('events').select('payload').where('type', '=', 'alert.sent').execute()).map((e) => JSON.parse(e.payload));
    const database = (thresholds: { warn_threshold: number | null; fail_threshold: number | null }) =>
      db.updateTable('health_checks').set(thresholds).where('name', '=', 'database').execute();

    assert.equal((await run()).status, 'pass');
    assert.deepEqual(await alerts(), [], 'a first clean run sends nothing');

    await database({ warn_threshold: 100, fail_threshold: 0 });
    assert.equal((await run()).status, 'fail');
    const sent = await alerts();
    assert.equal(sent.length, 1, 'pass → fail alerts');
    assert.equal(sent[0].previous, 'pass');
    assert.equal(sent[0].current, 'fail');
    assert.deepEqual(
      sent[0].failing_checks.map((c: { name: string; status: string }) => [c.name, c.status]),
      [['database', 'fail']],
    );

    assert.equal((await run()).status, 'fail');
    assert.equal((await alerts()).length, 1, 'fail → fail does not alert again');

    await database({ warn_threshold: 100, fail_threshold: 1000 });
    assert.equal((await run()).status, 'pass');
    assert.equal((await alerts()).length, 1, 'fail → pass (recovery) does not alert');

    const changes = async () => (await alerts()).map((a: { previous: string; current: string }) => `${a.previous}→${a.current}`).sort();
    await database({ warn_threshold: 0, fail_threshold: 1000 });
    assert.equal((await run()).status, 'warn');
    assert.deepEqual(await changes(), ['pass→fail', 'pass→warn']);
    await database({ warn_threshold: 0, fail_threshold: 0 });
    assert.equal((await run()).status, 'fail');
    assert.deepEqual(await changes(), ['pass→fail', 'pass→warn', 'warn→fail']);
    const dispatch = await db.selectFrom('jobs').select('name').where('name', '=', 'events.dispatch').execute();
    assert.equal(dispatch.length, 3, 'each alert is queued for delivery in the same transaction');
  });
});
