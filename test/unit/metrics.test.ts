import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMetrics } from '../../src/http/metrics.ts';

function sample(text: string, line: string): number {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  assert.ok(found, `no sample ${line}`);
  return Number(found.slice(line.length + 1));
}

test('request metrics are exposed as a Prometheus counter and a cumulative histogram', async () => {
  const metrics = createMetrics({ gc: false });
  metrics.record('GET', '/livez', 200, 0.0007);
  metrics.record('GET', '/livez', 200, 0.03);
  metrics.record('GET', '/livez', 404, 7);
  metrics.record('PATCH', '/api/v1/organization', 200, 0.004);
  const text = await metrics.registry.metrics();
  assert.match(text, /^# TYPE academy_http_requests_total counter$/m);
  assert.match(text, /^# TYPE academy_http_request_duration_seconds histogram$/m);
  assert.equal(sample(text, 'academy_http_requests_total{method="GET",route="/livez",status="200"}'), 2);
  assert.equal(sample(text, 'academy_http_requests_total{method="GET",route="/livez",status="404"}'), 1);
  const bucket = (le: string) => sample(text, `academy_http_request_duration_seconds_bucket{method="GET",route="/livez",le="${le}"}`);
  assert.equal(bucket('0.001'), 1);
  assert.equal(bucket('0.025'), 1);
  assert.equal(bucket('0.05'), 2, 'buckets are cumulative');
  assert.equal(bucket('5'), 2, 'the 7 s request is above the largest bound');
  assert.equal(bucket('+Inf'), 3);
  assert.equal(sample(text, 'academy_http_request_duration_seconds_count{method="GET",route="/livez"}'), 3);
  assert.ok(Math.abs(sample(text, 'academy_http_request_duration_seconds_sum{method="GET",route="/livez"}') - 7.0307) < 1e-9);
  assert.equal(sample(text, 'academy_http_request_duration_seconds_count{method="PATCH",route="/api/v1/organization"}'), 1);
  assert.match(text, /process_cpu_user_seconds_total/, 'process metrics are there too');
});

test("the process metrics are prom-client's defaults, with the garbage-collection histogram only when asked for", async () => {
  // Every default metric family but the collections' histogram (its name comes from the same list).
  const expected = [
    'process_cpu_user_seconds_total',
    'process_start_time_seconds',
    'process_resident_memory_bytes',
    'nodejs_eventloop_lag_p99_seconds',
    'nodejs_active_handles_total',
    'nodejs_heap_size_used_bytes',
    'nodejs_heap_space_size_used_bytes',
    'nodejs_version_info',
  ];
  const without = await createMetrics({ gc: false }).registry.metrics();
  for (const name of expected) assert.match(without, new RegExp(`^# TYPE ${name} `, 'm'), `${name} is exposed`);
  assert.doesNotMatch(without, /nodejs_gc_duration_seconds/);
  const text = await createMetrics({ gc: true }).registry.metrics();
  assert.match(text, /^# TYPE nodejs_gc_duration_seconds histogram$/m);
  for (const name of expected) assert.match(text, new RegExp(`^# TYPE ${name} `, 'm'), `${name} is exposed with the histogram too`);
  // The same families but the histogram: nothing else differs between the two.
  const families = (metrics: string) =>
    [...metrics.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]).filter((n) => n !== 'nodejs_gc_duration_seconds');
  assert.deepEqual(families(without), families(text));
});
