import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { SERVER_FLAGS as flags } from '../../bench/node-flags.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DEPLOY = path.join(ROOT, 'deploy');
const read = (file: string) => readFileSync(path.join(DEPLOY, file), 'utf8');

interface Service {
  command?: string[];
  image?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas: string | number };
  restart?: string;
  profiles?: string[];
  volumes?: string[];
}

/** The `[Section] Key=value` pairs of a unit file, keys repeated as they are. */
function unit(file: string): Map<string, string[]> {
  const entries = new Map<string, string[]>();
  let section = '';
  for (const line of read(file).split('\n')) {
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) section = header[1] as string;
    const pair = /^(\w+)=(.*)$/.exec(line);
    if (pair) {
      const key = `${section}.${pair[1]}`;
      entries.set(key, [...(entries.get(key) ?? []), pair[2] as string]);
    }
  }
  return entries;
}

const HARDENING = {
  NoNewPrivileges: 'true',
  ProtectSystem: 'strict',
  ProtectHome: 'true',
  PrivateTmp: 'true',
  PrivateDevices: 'true',
  CapabilityBoundingSet: '',
  RestrictAddressFamilies: 'AF_INET AF_INET6 AF_UNIX',
  SystemCallArchitectures: 'native',
  User: 'academy',
  StateDirectory: 'academy',
};

describe('deploy/', () => {
  test('compose.yaml: PostgreSQL, Redis, a migration run once first, N API instances, M workers and a proxy', () => {
    const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service> };
    const { postgres, redis, migrate, api, worker, proxy } = compose.services;
    assert.ok(postgres?.image?.startsWith('postgres:'));
    assert.ok(redis?.image?.startsWith('redis:'));
    assert.deepEqual(migrate?.command, ['migrate']);
    assert.equal(migrate?.restart, 'no');
    assert.equal(migrate?.depends_on?.postgres?.condition, 'service_healthy');
    assert.deepEqual(api?.command, ['serve', '--no-worker']);
    assert.deepEqual(worker?.command, ['worker']);
    for (const [name, service] of [
      ['api', api],
      ['worker', worker],
    ] as const) {
      assert.equal(service?.depends_on?.migrate?.condition, 'service_completed_successfully', `${name} starts after the migration`);
      assert.match(String(service?.deploy?.replicas), /^\$\{ACADEMY_\w+:-\d+\}$/, `${name} is scaled by a variable`);
      assert.match(service?.environment?.DATABASE_URL ?? '', /^postgres:\/\/.+@postgres:5432\//);
      assert.equal(service?.environment?.REDIS_URL, 'redis://redis:6379');
      assert.equal(service?.environment?.ACADEMY_METRICS_PORT, '9100');
    }
    assert.equal(api?.environment?.ACADEMY_TRUST_PROXY, 'true');
    assert.match(String(api?.deploy?.replicas), /^\$\{ACADEMY_API_INSTANCES:-2\}$/, 'two API instances unless told');
    assert.ok(proxy?.volumes?.some((v) => v.startsWith('./caddy/Caddyfile:')));

    const caddy = read('caddy/Caddyfile');
    assert.match(caddy, /name api\s+port 3000/, 'the proxy balances over every api container on its PORT');
    assert.equal(api?.environment?.PORT, '3000');
    assert.match(caddy, /lb_policy round_robin/);
    assert.match(caddy, /@metrics path \/metrics\s+respond @metrics 404/);

    for (const service of [api, worker]) {
      assert.match(
        service?.environment?.ACADEMY_PUBLIC_URL ?? '',
        /^\$\{ACADEMY_PUBLIC_URL:-http:\/\/localhost:8080\}$/,
        'links name the proxy, not a container',
      );
    }
    const envFile = /cp (deploy\/\S+) deploy\/academy\.env/.exec(read('compose.yaml'))?.[1] ?? '';
    assert.ok(existsSync(path.join(ROOT, envFile)), `the example env file the comment names exists: ${envFile}`);

    const prometheus = parse(read('prometheus/prometheus.yml')) as {
      alerting: { alertmanagers: { static_configs: { targets: string[] }[] }[] };
      rule_files: string[];
      scrape_configs: { job_name: string; dns_sd_configs: { names: string[]; port: number }[] }[];
    };
    assert.deepEqual(
      prometheus.scrape_configs.map((c) => [c.job_name, c.dns_sd_configs[0]?.names[0], c.dns_sd_configs[0]?.port]),
      [
        ['academy-api', 'api', 9100],
        ['academy-worker', 'worker', 9100],
      ],
    );
    assert.deepEqual(prometheus.rule_files, ['/etc/prometheus/alerts.yml']);
    // The alerts reach someone: Prometheus sends them to the Alertmanager of the same profile.
    assert.deepEqual(prometheus.alerting.alertmanagers[0]?.static_configs[0]?.targets, ['alertmanager:9093']);
    const { alertmanager } = compose.services;
    assert.ok(alertmanager?.image?.startsWith('prom/alertmanager:'));
    assert.ok(alertmanager?.volumes?.some((v) => v.startsWith('./alertmanager/alertmanager.yml:')));
    const routes = parse(read('alertmanager/alertmanager.yml')) as { route: { receiver: string }; receivers: { name: string }[] };
    assert.ok(
      routes.receivers.some((r) => r.name === routes.route.receiver),
      'the route names a receiver that exists',
    );
  });

  test('the image runs the package bin with the flags the bin itself uses', () => {
    const dockerfile = read('Dockerfile');
    assert.match(dockerfile, /^FROM node:24/m);
    const entrypoint = /^ENTRYPOINT (.+)$/m.exec(dockerfile)?.[1] ?? '[]';
    assert.deepEqual(JSON.parse(entrypoint), ['node', ...flags, 'bin/academy.js']);
    // Node.js keys its compile cache by the flags: the build's start must fill the one the image uses.
    assert.match(dockerfile, new RegExp(`^RUN node ${flags.join(' ')} bin/academy\\.js --version`, 'm'));
    const start = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    assert.equal(start, `node ${flags.join(' ')} bin/academy.js serve --demo`, 'npm start runs with them too');
  });

  test('systemd units: a migration once, an API instance per port, workers, all hardened', () => {
    const migrate = unit('systemd/academy-migrate.service');
    const api = unit('systemd/academy-api@.service');
    const worker = unit('systemd/academy-worker@.service');
    assert.deepEqual(migrate.get('Service.Type'), ['oneshot']);
    assert.match(migrate.get('Service.ExecStart')?.[0] ?? '', / migrate$/);
    assert.match(api.get('Service.ExecStart')?.[0] ?? '', / serve --no-worker$/);
    assert.match(worker.get('Service.ExecStart')?.[0] ?? '', / worker( |$)/);
    assert.ok(api.get('Service.Environment')?.includes('PORT=%i'), 'the instance name is its port');
    assert.ok(api.get('Service.Environment')?.includes('ACADEMY_METRICS_PORT=1%i'));
    assert.ok(worker.get('Service.Environment')?.includes('ACADEMY_METRICS_PORT=%i'));
    for (const [name, entries] of [
      ['migrate', migrate],
      ['api', api],
      ['worker', worker],
    ] as const) {
      assert.deepEqual(entries.get('Service.EnvironmentFile'), ['/etc/academy/academy.env'], name);
      // The Node.js flags of the `academy` command's shebang, all of them (ADR 0011, 0015, 0018).
      assert.ok(
        entries
          .get('Service.ExecStart')?.[0]
          ?.startsWith(`/opt/academy/node_modules/.bin/node ${flags.join(' ')} /opt/academy/bin/academy.js `),
        name,
      );
      for (const [key, value] of Object.entries(HARDENING)) assert.deepEqual(entries.get(`Service.${key}`), [value], `${name}: ${key}`);
      if (name !== 'migrate') {
        assert.match(entries.get('Unit.Requires')?.[0] ?? '', /academy-migrate\.service/, `${name} requires the migration`);
        assert.match(entries.get('Unit.After')?.[0] ?? '', /academy-migrate\.service/, `${name} starts after it`);
      }
    }
    const example = read('systemd/academy.env.example');
    for (const variable of ['DATABASE_URL=postgres://', 'REDIS_URL=', 'ACADEMY_DATA_DIR=/var/lib/academy', 'ACADEMY_TRUST_PROXY=']) {
      assert.ok(example.includes(variable), variable);
    }
  });

  const analyze = spawnSync('systemd-analyze', ['--version']).status === 0;
  test('systemd-analyze verify accepts the units', { skip: !analyze && 'systemd-analyze is not installed' }, () => {
    // Instances of the templates, with the install path pointed at this checkout so ExecStart resolves.
    const dir = mkdtempSync(path.join(tmpdir(), 'academy-units-'));
    try {
      const files = [
        ['academy-migrate.service', 'academy-migrate.service'],
        ['academy-api@.service', 'academy-api@3001.service'],
        ['academy-worker@.service', 'academy-worker@9101.service'],
        ['academy.target', 'academy.target'],
      ];
      for (const [from, to] of files) writeFileSync(path.join(dir, to as string), read(`systemd/${from}`).replaceAll('/opt/academy', ROOT));
      const result = spawnSync('systemd-analyze', ['verify', '--man=no', ...files.map(([, to]) => path.join(dir, to as string))], {
        encoding: 'utf8',
        env: { ...process.env, SYSTEMD_LOG_LEVEL: 'warning' },
      });
      const complaints = `${result.stdout}${result.stderr}`
        .split('\n')
        .filter((line) => line.trim() !== '' && !/Failed to resolve user|user academy|group academy/i.test(line));
      assert.deepEqual(complaints, []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
