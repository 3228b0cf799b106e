import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../support/cli.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { dialect, redisSkipReason, redisUrl } from '../support/env.ts';
import { assertFetchError } from '../support/errors.ts';
import { eventually } from '../support/eventually.ts';
import { type AcademyServer, type RunningProcess, runAcademy, startNode, startServer } from '../support/process.ts';

const skip =
  dialect === 'postgres'
    ? await redisSkipReason('the scaled-out layout is')
    : 'the scaled-out layout (deploy/) runs on PostgreSQL and Redis; the PostgreSQL suite starts it';

const STARTUP_MS = 90_000;
const BIN = path.resolve(import.meta.dirname, '../../bin/academy.js');

/** A small round-robin reverse proxy, as Caddy is in deploy/compose.yaml: each request goes to the next upstream. */
async function startProxy(upstreams: URL[]) {
  const served = upstreams.map(() => 0);
  let next = 0;
  const server = http.createServer((request, response) => {
    const index = next++ % upstreams.length;
    served[index] = (served[index] ?? 0) + 1;
    const upstream = upstreams[index] as URL;
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, 'x-forwarded-for': request.socket.remoteAddress ?? '' },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => {
      response.writeHead(502);
      response.end();
    });
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Requests to an instance's own /metrics (it answers its own machine only): its request count for a route. */
async function requestsServed(base: string, route: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('academy_http_requests_total{') && line.includes(`route="${route}"`)) total += Number(line.split(' ').pop());
  }
  return total;
}

describe('the deploy/ layout as plain processes: migrate once, two API instances, a worker, a proxy in front', { skip }, () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let apis: AcademyServer[] = [];
  let worker: RunningProcess | undefined;
  let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
  let token: string;

  before(async () => {
    database = await createTestDatabase();
    env = {
      DATABASE_URL: database.url,
      ACADEMY_DATA_DIR: database.dataDir,
      REDIS_URL: redisUrl,
      ACADEMY_REDIS_PREFIX: `academy-layout-${randomBytes(4).toString('hex')}`,
      ACADEMY_TRUST_PROXY: '127.0.0.1',
      ACADEMY_JOB_POLL_MS: '250',
    };
  });

  after(async () => {
    await proxy?.close();
    for (const child of [...apis.map((api) => api.child), worker?.child]) child?.kill('SIGKILL');
    await Promise.all([...apis.map((api) => api.exited), worker?.exited]);
    await database?.drop();
  });

  test('academy migrate runs once, before anything else starts', async () => {
    const migrated = await runAcademy(['--json', 'migrate'], env);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.ok(JSON.parse(migrated.stdout).applied.length > 10, migrated.stdout);
    // In this process (the same entry point as the bin), to keep the test short.
    const created = await runCli(['--json', 'tokens', 'create', '--name', 'layout', '--scopes', '*'], env);
    assert.equal(created.code, 0, created.stderr);
    token = JSON.parse(created.stdout).token;
    assert.match(token, /^acd_/);
  });

  test('two `academy serve --no-worker` on their own ports, one `academy worker`, a round-robin proxy', async () => {
    worker = startNode([BIN, 'worker'], { ...env, LOG_LEVEL: 'warn' });
    // Three Node.js processes starting at once on a busy machine can take a while: a generous bound.
    apis = await Promise.all([startServer(['--no-worker'], env, STARTUP_MS), startServer(['--no-worker'], env, STARTUP_MS)]);
    const ports = apis.map((api) => new URL(api.url).port);
    assert.notEqual(ports[0], ports[1]);
    await worker.waitFor(/Academy worker \S+ started/, STARTUP_MS);
    proxy = await startProxy(apis.map((api) => new URL(api.url)));
  });

  test('through the proxy: a token-authenticated mix of requests, a job the worker completes, and both instances answered', async () => {
    const base = `${proxy?.url}/api/v1`;
    const auth = { authorization: `Bearer ${token}` };
    const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${base}${url}`, {
        method,
        headers: { ...auth, ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, headers: response.headers, body: (await response.json()) as any };
    };

    await assertFetchError(await fetch(`${base}/organization`), 401, 'unauthenticated', 'without a token');
    const organization = await call('GET', '/organization');
    assert.equal(organization.status, 200);
    const etag = organization.headers.get('etag') as string;
    const renamed = await call('PATCH', '/organization', { name: 'Scaled Academy' }, { 'if-match': etag });
    assert.equal(renamed.status, 200);
    const stale = await call('PATCH', '/organization', { name: 'Stale' }, { 'if-match': etag });
    assert.equal(stale.status, 412);
    assert.equal(stale.body.code, 'precondition_failed');
    // The other instance had the organization cached: the change reaches it through the change feed.
    for (let i = 0; i < 2; i++) {
      await eventually(async () => (await call('GET', '/organization')).body.data.name === 'Scaled Academy', {
        what: 'every instance to show the new name',
      });
    }
    assert.equal((await call('GET', '/courses')).status, 200);
    assert.equal((await call('GET', '/users')).status, 200);

    const tasks = (await call('GET', '/tasks')).body.data as { id: number; name: string }[];
    const task = tasks.find((t) => t.name === 'Prune idempotency keys') ?? tasks[0];
    assert.ok(task);
    const run = await call('POST', `/tasks/${task.id}/run`);
    assert.equal(run.status, 202);
    const location = run.headers.get('location') as string;
    assert.equal(location, `/api/v1/tasks/${task.id}/runs/${run.body.data.id}`);
    const finished = await eventually(
      async () => {
        const polled = await call('GET', location.replace('/api/v1', ''));
        return ['succeeded', 'failed'].includes(polled.body.data.status) && polled.body.data;
      },
      { what: 'the worker to finish the run', timeoutMs: 15_000 },
    );
    assert.equal(finished.status, 'succeeded', JSON.stringify(finished));

    // Both instances answered: the proxy sent each its share, and each counted requests of its own.
    assert.ok(
      proxy?.served.every((n) => n >= 3),
      JSON.stringify(proxy?.served),
    );
    for (const api of apis) {
      assert.ok((await requestsServed(api.url, '/api/v1/organization')) > 0, `${api.url} served /organization`);
    }
    const runsPolled = await Promise.all(apis.map((api) => requestsServed(api.url, '/api/v1/tasks/:task/runs/:run')));
    assert.ok(runsPolled.reduce((a, b) => a + b, 0) >= 1, 'the run was polled through the proxy');
  });

  test('SIGTERM stops each process cleanly', async () => {
    for (const child of [...apis.map((api) => api.child), worker?.child]) child?.kill('SIGTERM');
    const codes = await Promise.all([...apis.map((api) => api.exited), worker?.exited]);
    assert.deepEqual(codes, [0, 0, 0]);
  });
});
