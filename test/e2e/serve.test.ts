import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { assertFetchError } from '../support/errors.ts';
import { type AcademyServer, runAcademy, startServer } from '../support/process.ts';
import { connect, within } from '../support/sockets.ts';

/**
 * A PATCH whose body arrives in two parts, so that the request is in flight for as long as we like.
 * `Expect: 100-continue` tells us when the server has taken the request in (`started`).
 */
function slowPatch(url: string, token: string, body: string) {
  const target = new URL('/api/v1/organization', url);
  const split = Math.floor(body.length / 2);
  // A keep-alive client that never drops its idle connection itself, as many HTTP clients do.
  const agent = new http.Agent({ keepAlive: true });
  const request = http.request(target, {
    agent,
    method: 'PATCH',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      expect: '100-continue',
    },
  });
  const started = new Promise<void>((resolve) => {
    request.once('continue', () => {
      request.write(body.slice(0, split));
      resolve();
    });
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
  });
  request.flushHeaders();
  return { started, response, finish: () => request.end(body.slice(split)) };
}

describe('academy serve (a real process)', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let server: AcademyServer;

  before(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url, ACADEMY_DATA_DIR: database.dataDir };
    server = await startServer(['--no-worker'], env);
  });

  after(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await database?.drop();
  });

  test('listens on the port it prints and serves a CLI-made token over the network', async () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const created = await runAcademy(['tokens', 'create', '--name', 'e2e', '--scopes', 'organization:read', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    const issued = JSON.parse(created.stdout);
    assert.match(issued.token, /^acd_/);
    assert.deepEqual(issued.scopes, ['organization:read']);

    const res = await fetch(`${server.url}/api/v1/organization`, { headers: { authorization: `Bearer ${issued.token}` } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    const body = (await res.json()) as { data: { name: unknown; timezone: unknown } };
    assert.equal(typeof body.data.name, 'string');
    assert.equal(typeof body.data.timezone, 'string');

    const anonymous = await fetch(`${server.url}/api/v1/organization`);
    await assertFetchError(anonymous, 401, 'unauthenticated');
  });

  test('revoking, rotating or re-scoping a token with the CLI takes effect on the running server at once', async () => {
    const make = async (name: string, scopes: string) => {
      const created = await runAcademy(['--json', 'tokens', 'create', '--name', name, '--scopes', scopes], env);
      assert.equal(created.code, 0, created.stderr);
      return JSON.parse(created.stdout) as { id: number; token: string };
    };
    const get = (token: string) => fetch(`${server.url}/api/v1/organization`, { headers: { authorization: `Bearer ${token}` } });
    // Each token is used first, so the server has it in its token cache when the CLI changes it.
    const revoked = await make('to-revoke', 'organization:read');
    const rotated = await make('to-rotate', 'organization:read');
    const rescoped = await make('to-rescope', 'organization:read');
    for (const t of [revoked, rotated, rescoped]) assert.equal((await get(t.token)).status, 200);

    assert.equal((await runAcademy(['tokens', 'revoke', String(revoked.id)], env)).code, 0);
    const rotation = await runAcademy(['--json', 'tokens', 'rotate', String(rotated.id)], env);
    assert.equal(rotation.code, 0, rotation.stderr);
    assert.equal((await runAcademy(['tokens', 'scopes', String(rescoped.id), '--set', 'health:read'], env)).code, 0);

    // The CLI has exited, so its changes are committed; PostgreSQL's notification may take a moment.
    const deadline = Date.now() + 2000;
    let statuses: number[] = [];
    do {
      statuses = [(await get(revoked.token)).status, (await get(rotated.token)).status, (await get(rescoped.token)).status];
      if (statuses.join() === '401,401,403') break;
      await sleep(50);
    } while (Date.now() < deadline);
    assert.deepEqual(statuses, [401, 401, 403], 'revoked, rotated-away and re-scoped tokens are refused');
    assert.equal((await get(JSON.parse(rotation.stdout).token)).status, 200, 'the replacement works');
  });

  test('SIGTERM lets an in-flight request finish, then the process exits 0', async () => {
    const created = await runAcademy(['--json', 'tokens', 'create', '--name', 'writer', '--scopes', 'organization:write'], env);
    assert.equal(created.code, 0, created.stderr);
    const writer = JSON.parse(created.stdout).token as string;

    const inFlight = slowPatch(server.url, writer, JSON.stringify({ name: 'Renamed during shutdown' }));
    await inFlight.started;
    await sleep(100);
    server.child.kill('SIGTERM');
    await sleep(500);
    assert.equal(server.child.exitCode, null, 'the process waits for the request in flight');

    inFlight.finish();
    const response = await inFlight.response;
    assert.equal(response.status, 200, response.body);
    assert.equal(JSON.parse(response.body).data.name, 'Renamed during shutdown');

    // Keep-alive connections must not hold the process: it exits right after the last response.
    const responded = Date.now();
    const exit = await Promise.race([server.exited, sleep(15_000).then(() => 'still running')]);
    assert.equal(exit, 0, server.output());
    assert.ok(Date.now() - responded < 8000, `exited ${Date.now() - responded} ms after the last response`);

    // Beside CI's two suites on two cores, a start has taken more than the default 30 s to listen.
    const restarted = await startServer(['--no-worker'], env, 180_000);
    try {
      const reader = JSON.parse(
        (await runAcademy(['--json', 'tokens', 'create', '--name', 'r', '--scopes', 'organization:read'], env)).stdout,
      );
      const res = await fetch(`${restarted.url}/api/v1/organization`, { headers: { authorization: `Bearer ${reader.token}` } });
      assert.equal(
        ((await res.json()) as { data: { name: string } }).data.name,
        'Renamed during shutdown',
        'the change made during shutdown was committed',
      );
    } finally {
      restarted.child.kill('SIGTERM');
      assert.equal(await restarted.exited, 0);
    }
  });

  test('SIGTERM with stalled clients: connections are cut after ACADEMY_SHUTDOWN_GRACE_SECONDS and the process exits', async () => {
    const created = await runAcademy(['--json', 'tokens', 'create', '--name', 'stalled', '--scopes', 'organization:write'], env);
    assert.equal(created.code, 0, created.stderr);
    const token = JSON.parse(created.stdout).token as string;
    // A request timeout far beyond the grace period: only the shutdown deadline can end these requests.
    const stalling = await startServer(['--no-worker'], {
      ...env,
      ACADEMY_SHUTDOWN_GRACE_SECONDS: '1',
      ACADEMY_REQUEST_TIMEOUT_MS: '120000',
    });
    const port = Number(new URL(stalling.url).port);
    // Bodies announced and never sent; `Expect: 100-continue` tells when the server has taken each request in.
    const stalled = await Promise.all(
      Array.from({ length: 10 }, () =>
        connect(
          port,
          `PATCH /api/v1/organization HTTP/1.1\r\nHost: academy.test\r\nAuthorization: Bearer ${token}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 1000\r\nExpect: 100-continue\r\n\r\n',
        ),
      ),
    );
    await Promise.all(stalled.map((c) => c.waitFor(/^HTTP\/1\.1 100 Continue\r\n/)));
    // And one that never finishes its headers.
    const slowHeaders = await connect(port, 'GET /livez HTTP/1.1\r\nHost: academy.test\r\n');
    await sleep(100);

    const signalled = Date.now();
    stalling.child.kill('SIGTERM');
    const exit = await within(stalling.exited, 10_000, 'still running');
    const took = Date.now() - signalled;
    for (const c of [...stalled, slowHeaders]) c.socket.destroy();
    assert.equal(exit, 0, stalling.output());
    assert.ok(took >= 900, `waited for the grace period (${took} ms)`);
    assert.ok(took < 5000, `exited ${took} ms after SIGTERM`);
  });

  test('with ACADEMY_METRICS_PORT, /metrics is served on that port and not on the API port', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const separate = await startServer(['--no-worker'], { ...env, ACADEMY_METRICS_PORT: String(port) });
    try {
      await fetch(`${separate.url}/livez`);
      const onApi = await fetch(`${separate.url}/metrics`);
      await assertFetchError(onApi, 404, 'not_found');
      const scraped = await fetch(`http://127.0.0.1:${port}/metrics`);
      assert.equal(scraped.status, 200);
      assert.match(await scraped.text(), /academy_http_requests_total\{method="GET",route="\/livez",status="200"\} 1/);
    } finally {
      separate.child.kill('SIGTERM');
      assert.equal(await separate.exited, 0);
    }
  });
});
