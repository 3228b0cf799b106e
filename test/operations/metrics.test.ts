import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Gauge } from 'prom-client';
import { createWorkerProbeServer } from '../../src/http/metrics.ts';
import type { AcademyModule } from '../../src/modules/manifest.ts';
import { PRODUCT_VERSION } from '../../src/platform/build.ts';
import { fixtures } from '../support/fixtures.ts';
import { bearer, createTestApp, createTestPlatform } from '../support/platform.ts';

test('after a small workload, /metrics shows the queue by job name and age, outcomes by status, 429s and health checks', async () => {
  const app = await createTestApp({ env: { ACADEMY_RATE_LIMIT_PER_MINUTE: '3' } });
  const make = fixtures(app.platform);
  const { db } = app.platform.database;
  // Two waiting jobs (one due a minute ago), one failed one, and a webhook delivery that failed.
  const minuteAgo = new Date(Date.now() - 60_000).toISOString();
  await db.transaction().execute(async (trx) => {
    await app.platform.queue.enqueue(trx, 'system.noop', {}, { runAt: new Date(minuteAgo) });
    await app.platform.queue.enqueue(trx, 'system.noop', {});
  });
  await make.job({ name: 'webhooks.deliver', failed_at: new Date().toISOString() });
  await make.webhookDelivery({ status: 'failed' });
  const token = await app.token(['organization:read']);
  const codes: number[] = [];
  for (let i = 0; i < 5; i++)
    codes.push((await app.http.inject({ method: 'GET', url: '/api/v1/organization', headers: bearer(token) })).statusCode);
  assert.deepEqual(codes, [200, 200, 200, 429, 429]);
  await db.updateTable('health_checks').set({ last_status: 'warn' }).where('name', '=', 'database').execute();

  const res = await app.http.inject({ method: 'GET', url: '/metrics' });
  assert.equal(res.statusCode, 200);
  const text = res.body;
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1]);
  assert.equal(value(/^academy_jobs\{name="system.noop",state="waiting"\} (\d+)$/m), 2);
  const age = value(/^academy_jobs_oldest_waiting_seconds\{name="system.noop"\} ([\d.]+)$/m);
  assert.ok(age >= 59 && age < 120, `oldest waiting job is ${age} s old`);
  assert.equal(value(/^academy_jobs\{name="webhooks.deliver",state="failed"\} (\d+)$/m), 1);
  assert.equal(value(/^academy_webhook_deliveries\{status="failed"\} (\d+)$/m), 1);
  assert.equal(value(/^academy_rate_limited_requests_total\{policy="default"\} (\d+)$/m) >= 2, true);
  assert.match(text, /^# TYPE academy_rate_limited_requests_total counter$/m);
  assert.match(
    text,
    new RegExp(
      `^academy_build_info\\{version="${PRODUCT_VERSION.replaceAll('.', '\\.')}",commit="[0-9a-f]{7,40}|unknown",node="${process.version.replaceAll('.', '\\.')}"\\} 1$`,
      'm',
    ),
  );
  if (app.platform.database.dialect === 'postgres') {
    // The scrape's own reads hold some while it runs: together within the pool's 10.
    const open =
      value(/^academy_db_pool_connections\{state="idle"\} (\d+)$/m) + value(/^academy_db_pool_connections\{state="in_use"\} (\d+)$/m);
    assert.ok(open >= 1, `${open} connections open`);
    // The scrape's reads run at once and may wait for one another: a count, shown.
    assert.ok(Number.isInteger(value(/^academy_db_pool_waiting (\d+)$/m)));
  } else assert.doesNotMatch(text, /academy_db_pool/, 'SQLite has no pool');
  assert.match(text, /^# TYPE academy_webhook_delivery_duration_seconds histogram$/m);
  assert.equal(value(/^academy_health_check_status\{check="database",status="warn"\} (\d)$/m), 1);
  assert.equal(value(/^academy_health_check_status\{check="database",status="pass"\} (\d)$/m), 0);
  assert.match(text, /^academy_http_requests_total\{method="GET",route="\/api\/v1\/organization",status="429"\} 2$/m);
});

test("a module's metrics come through its manifest: the probes export those of the modules they are given", async () => {
  const platform = await createTestPlatform();
  const things: AcademyModule = {
    name: 'things',
    metrics(registry) {
      new Gauge({
        name: 'academy_things',
        help: 'Things by colour.',
        labelNames: ['colour'],
        registers: [registry],
        collect() {
          this.set({ colour: 'blue' }, 2);
        },
      });
    },
  };
  const probes = await createWorkerProbeServer(platform, { running: 0 }, [things]);
  try {
    const text = (await probes.inject({ method: 'GET', url: '/metrics' })).body;
    assert.match(text, /^academy_things\{colour="blue"\} 2$/m);
    // The platform's own families stay; a module not given contributes nothing.
    assert.match(text, /^# TYPE academy_jobs gauge$/m);
    assert.doesNotMatch(text, /academy_webhook_deliveries/);
  } finally {
    await probes.close();
  }
});
