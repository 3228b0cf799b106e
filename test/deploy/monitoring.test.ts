import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { modules } from '../../src/assembly/modules.ts';
import { createWorkerProbeServer } from '../../src/http/metrics.ts';
import type { AcademyModule } from '../../src/modules/manifest.ts';
import { ci } from '../support/env.ts';
import { fixtures } from '../support/fixtures.ts';
import { bearer, createTestApp } from '../support/platform.ts';

const DEPLOY = path.resolve(import.meta.dirname, '../../deploy');
const ALERTS = path.join(DEPLOY, 'prometheus/alerts.yml');

/** Words of PromQL that look like metric names but are not (operators and modifiers). */
const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
  'inf',
  'nan',
]);

/** The metric names a PromQL expression reads (Grafana's `$variables` allowed). */
export function metricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\{?\w+\}?/g, ' ');
  const names = new Set<string>();
  for (const match of stripped.matchAll(/(?<![\w.])[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const rest = stripped.slice((match.index ?? 0) + match[0].length).trimStart();
    if (rest.startsWith('(') || KEYWORDS.has(match[0].toLowerCase())) continue;
    names.add(match[0]);
  }
  return [...names];
}

/** Every series name a Prometheus text exposition can hold: its samples' names and, from `# TYPE`, a histogram's or summary's parts. */
function exposed(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      const [, name, kind] = type as unknown as [string, string, string];
      names.add(name);
      if (kind === 'histogram') for (const part of ['_bucket', '_sum', '_count']) names.add(name + part);
      if (kind === 'summary') for (const part of ['_sum', '_count']) names.add(name + part);
    } else if (line && !line.startsWith('#')) {
      names.add(line.split(/[{ ]/)[0] as string);
    }
  }
  return names;
}

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

describe('the deploy/ dashboard and alert rules read only metrics the app exports', () => {
  /** What an API instance and a worker export after a small workload, and `up`, which Prometheus adds to every target. */
  const exported = new Set<string>(['up']);

  before(async () => {
    const app = await createTestApp({ env: { ACADEMY_RATE_LIMIT_PER_MINUTE: '2' } });
    const make = fixtures(app.platform);
    await make.job({ name: 'webhooks.deliver', failed_at: new Date().toISOString() });
    await make.webhookDelivery({ status: 'failed' });
    const token = await app.token(['*']);
    for (let i = 0; i < 3; i++) await app.http.inject({ method: 'GET', url: '/api/v1/organization', headers: bearer(token) });
    await app.http.inject({ method: 'GET', url: '/health', headers: bearer(token) });
    for (const name of exposed((await app.http.inject({ method: 'GET', url: '/metrics' })).body)) exported.add(name);
    const probes = await createWorkerProbeServer(app.platform, { running: 0 }, modules as readonly AcademyModule[]);
    for (const name of exposed((await probes.inject({ method: 'GET', url: '/metrics' })).body)) exported.add(name);
    await probes.close();
  });

  test('metric names are read from PromQL as Prometheus would', () => {
    assert.deepEqual(metricNames('sum by (le, route) (rate(a_b_bucket{job=~"$job",le="0.5"}[$__rate_interval])) / on (x) c:d > 0.95'), [
      'a_b_bucket',
      'c:d',
    ]);
    assert.deepEqual(metricNames('histogram_quantile(0.95, sum without (instance) (rate(x_total[5m] offset 1h))) and bool up'), [
      'x_total',
      'up',
    ]);
  });

  test('the app exports what the dashboard and the rules are about', () => {
    for (const name of [
      'academy_http_requests_total',
      'academy_http_request_duration_seconds_bucket',
      'academy_jobs',
      'academy_jobs_oldest_waiting_seconds',
      'academy_webhook_deliveries',
      'academy_notifications',
      'academy_rate_limited_requests_total',
      'academy_health_check_status',
      'academy_worker_running_jobs',
      'process_resident_memory_bytes',
    ]) {
      assert.ok(exported.has(name), name);
    }
  });

  test('alerts.yml: well-formed rules over exported metrics, covering queue, deliveries, 5xx, health and instances', () => {
    const document = parse(readFileSync(ALERTS, 'utf8')) as { groups: { name: string; rules: Rule[] }[] };
    const rules = document.groups.flatMap((group) => group.rules);
    assert.ok(rules.length >= 5);
    assert.equal(new Set(rules.map((r) => r.alert)).size, rules.length, 'alert names are unique');
    const used = new Set<string>();
    for (const rule of rules) {
      assert.match(rule.alert, /^Academy[A-Z]\w+$/);
      assert.ok(['warning', 'critical'].includes(rule.labels?.severity ?? ''), `${rule.alert} has a severity`);
      assert.ok(rule.annotations?.summary, `${rule.alert} has a summary`);
      const names = metricNames(rule.expr);
      assert.ok(names.length > 0, rule.alert);
      for (const name of names) {
        assert.ok(exported.has(name), `${rule.alert} reads ${name}, which the app does not export`);
        used.add(name);
      }
    }
    for (const name of [
      'up',
      'academy_http_requests_total',
      'academy_jobs',
      'academy_jobs_oldest_waiting_seconds',
      'academy_webhook_deliveries',
      'academy_health_check_status',
    ]) {
      assert.ok(used.has(name), `an alert watches ${name}`);
    }
  });

  test('academy.json: a Grafana dashboard whose every query reads exported metrics', () => {
    const dashboard = JSON.parse(readFileSync(path.join(DEPLOY, 'grafana/academy.json'), 'utf8')) as {
      uid: string;
      panels: { id: number; type: string; title: string; targets?: { expr: string }[] }[];
    };
    assert.equal(dashboard.uid, 'academy');
    assert.equal(new Set(dashboard.panels.map((p) => p.id)).size, dashboard.panels.length, 'panel ids are unique');
    const used = new Set<string>();
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) {
      assert.ok(panel.targets?.length, `${panel.title} has a query`);
      for (const target of panel.targets ?? []) {
        for (const name of metricNames(target.expr)) {
          assert.ok(exported.has(name), `panel "${panel.title}" reads ${name}, which the app does not export`);
          used.add(name);
        }
      }
    }
    for (const name of [
      'academy_http_requests_total',
      'academy_http_request_duration_seconds_bucket',
      'academy_jobs',
      'academy_jobs_oldest_waiting_seconds',
      'academy_webhook_deliveries',
      'academy_notifications',
      'academy_rate_limited_requests_total',
      'academy_health_check_status',
      'process_resident_memory_bytes',
    ]) {
      assert.ok(used.has(name), `a panel shows ${name}`);
    }
  });

  const promtool = spawnSync('promtool', ['--version']).status === 0;
  test('promtool accepts the rules and their unit tests pass', { skip: !promtool && !ci && 'promtool is not installed' }, () => {
    const check = execFileSync('promtool', ['check', 'rules', ALERTS], { encoding: 'utf8' });
    assert.match(check, /SUCCESS: \d+ rules found/);
    const unit = execFileSync('promtool', ['test', 'rules', path.join(DEPLOY, 'prometheus/alerts.test.yml')], { encoding: 'utf8' });
    assert.match(unit, /SUCCESS/);
  });
});
