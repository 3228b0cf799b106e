import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertError } from '../support/errors.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';
import { connect, parseResponse, type RawResponse, within } from '../support/sockets.ts';

/** A listening server (not `inject`): timeouts and the HTTP parser only exist on real connections. */
async function listening(env: Record<string, string> = {}): Promise<{ app: TestApp; port: number; token: string }> {
  const app = await createTestApp({ env });
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.http.server.address() as AddressInfo).port, token: await app.token(['*']) };
}

/** Sends `text` on a connection of its own and parses what the server sent before it closed. */
async function exchange(port: number, text: string): Promise<RawResponse> {
  const connection = await connect(port, text);
  const closed = await within(connection.closed, 5000, null);
  connection.socket.destroy();
  assert.notEqual(closed, null, `the server closed the connection after answering ${JSON.stringify(text.slice(0, 60))}`);
  return parseResponse(connection.received());
}

function assertErrorBody(res: RawResponse, status: number, code: string): void {
  assert.equal(res.status, status, res.body);
  assert.match(res.headers['content-type'] ?? '', /^application\/json/);
  const body = JSON.parse(res.body);
  assert.deepEqual(Object.keys(body).sort(), ['code', 'message'], res.body);
  assert.equal(body.code, code);
  assert.equal(typeof body.message, 'string');
}

const stalledPatch = (token: string | null, contentLength: number) =>
  'PATCH /api/v1/organization HTTP/1.1\r\nHost: academy.test\r\nContent-Type: application/json\r\n' +
  (token ? `Authorization: Bearer ${token}\r\n` : '') +
  `Content-Length: ${contentLength}\r\n\r\n{"na`;

describe('connections: timeouts (small ones configured)', () => {
  let server: Awaited<ReturnType<typeof listening>>;

  before(async () => {
    server = await listening({
      ACADEMY_REQUEST_TIMEOUT_MS: '600',
      ACADEMY_HEADERS_TIMEOUT_MS: '300',
      ACADEMY_KEEP_ALIVE_TIMEOUT_MS: '300',
    });
  });

  test('requests whose body never arrives are answered 408 request_timeout and closed within ACADEMY_REQUEST_TIMEOUT_MS', async () => {
    const connections = await Promise.all(Array.from({ length: 20 }, () => connect(server.port, stalledPatch(server.token, 1000))));
    const closed = await Promise.all(connections.map((c) => within(c.closed, 3000, 'still open')));
    for (const c of connections) c.socket.destroy();
    assert.deepEqual(new Set(closed.map((ms) => typeof ms)), new Set(['number']), `closed after ${closed.join(', ')} ms`);
    for (const c of connections) assertErrorBody(parseResponse(c.received()), 408, 'request_timeout');
  });

  test('headers that never end, or no request at all, are closed within ACADEMY_HEADERS_TIMEOUT_MS', async () => {
    const connections = await Promise.all([
      connect(server.port, 'GET /livez HTTP/1.1\r\nHost: academy.test\r\nX-Slow: '),
      connect(server.port, 'GE'),
      connect(server.port, ''),
    ]);
    const closed = await Promise.all(connections.map((c) => within(c.closed, 2500, 'still open')));
    for (const c of connections) c.socket.destroy();
    assert.deepEqual(new Set(closed.map((ms) => typeof ms)), new Set(['number']), `closed after ${closed.join(', ')} ms`);
  });

  test('an idle keep-alive connection is closed after ACADEMY_KEEP_ALIVE_TIMEOUT_MS', async () => {
    const connection = await connect(server.port, 'GET /livez HTTP/1.1\r\nHost: academy.test\r\n\r\n');
    await connection.waitFor(/\r\n\r\n\{"status":"ok"\}/);
    const answered = Date.now();
    const closed = await within(connection.closed, 2500, 'still open');
    connection.socket.destroy();
    assert.equal(typeof closed, 'number', 'closed by the server');
    assert.ok(Date.now() - answered >= 200, 'not before the keep-alive timeout');
  });
});

describe('connections: early answers, parser errors and Host headers (default timeouts)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'academy-connections-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  let server: Awaited<ReturnType<typeof listening>>;

  before(async () => {
    // A deprecated v1, so that every /api/v1 response carries lifecycle Link relations as well.
    const versions = path.join(dir, 'versions.json');
    writeFileSync(
      versions,
      JSON.stringify({
        versions: [
          { version: 'v1', status: 'deprecated', released_at: '2025-01-01', deprecated_at: null, sunset_at: null, documentation: '/docs' },
        ],
      }),
    );
    server = await listening({ ACADEMY_VERSIONS_FILE: versions });
  });

  test('an error answered before the request body arrived closes the connection', async () => {
    for (const [token, length, status] of [
      [null, 1000, 401],
      ['valid', 5_000_000, 413],
    ] as const) {
      const connection = await connect(server.port, stalledPatch(token && server.token, length));
      const closed = await within(connection.closed, 2000, 'still open');
      connection.socket.destroy();
      const res = parseResponse(connection.received());
      assert.equal(res.status, status);
      assert.equal(res.headers.connection, 'close');
      assert.equal(typeof closed, 'number', `the connection of the ${status} was closed`);
    }
    // A request that was read to its end keeps its connection.
    const body = '{"name":5}';
    const complete = await connect(
      server.port,
      `PATCH /api/v1/organization HTTP/1.1\r\nHost: academy.test\r\nAuthorization: Bearer ${server.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await complete.waitFor(/"errors":\{.*\}\}$/);
    complete.socket.destroy();
    assertError(parseResponse(complete.received()), 422, 'validation_failed');
    assert.equal(parseResponse(complete.received()).headers.connection, 'keep-alive');
  });

  test("malformed requests, oversized headers and a missing HTTP/1.1 Host get the contract's error body", async () => {
    assertErrorBody(await exchange(server.port, 'GARBAGE\r\n\r\n'), 400, 'malformed_request');
    assertErrorBody(await exchange(server.port, 'GET /livez HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n\r\n'), 400, 'malformed_request');
    assertErrorBody(
      await exchange(server.port, `GET /livez HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
      431,
      'headers_too_large',
    );
    assertErrorBody(await exchange(server.port, 'GET /api/v1/tasks HTTP/1.1\r\nConnection: close\r\n\r\n'), 400, 'malformed_request');
  });

  test('two Host headers are a 400 (RFC 9112 §3.2)', async () => {
    const res = await exchange(
      server.port,
      `GET /api/v1/tasks HTTP/1.1\r\nHost: academy.test\r\nHost: evil.example\r\nAuthorization: Bearer ${server.token}\r\nConnection: close\r\n\r\n`,
    );
    assertErrorBody(res, 400, 'malformed_request');
  });

  test('a method the server does not route (QUERY) is a 405 with Allow, before authentication', async () => {
    const res = await exchange(server.port, 'QUERY /api/v1/courses HTTP/1.1\r\nHost: academy.test\r\nConnection: close\r\n\r\n');
    assertErrorBody(res, 405, 'method_not_allowed');
    assert.match(res.headers.allow ?? '', /\bGET\b/);
  });

  test('a missing, malformed or foreign Host header is never a 500 and never appears in links', async () => {
    const auth = `Authorization: Bearer ${server.token}\r\n`;
    const requests: [string, string][] = [
      ['HTTP/1.0 without Host', `GET /api/v1/tasks?per_page=1 HTTP/1.0\r\n${auth}\r\n`],
      ['Host: a b', `GET /api/v1/tasks?per_page=1 HTTP/1.1\r\nHost: a b\r\n${auth}Connection: close\r\n\r\n`],
      ['Host: x:99999', `GET /api/v1/tasks?per_page=1 HTTP/1.1\r\nHost: x:99999\r\n${auth}Connection: close\r\n\r\n`],
      ['Host: evil.example', `GET /api/v1/tasks?per_page=1 HTTP/1.1\r\nHost: evil.example\r\n${auth}Connection: close\r\n\r\n`],
    ];
    for (const [label, text] of requests) {
      const res = await exchange(server.port, text);
      assert.equal(res.status, 200, `${label}: ${res.body}`);
      const body = JSON.parse(res.body);
      assert.equal(body.links.first, '/api/v1/tasks?per_page=1&page=1');
      assert.equal(body.meta.path, '/api/v1/tasks');
      assert.match(
        res.headers.link ?? '',
        /^<\/docs>; rel="deprecation"; type="text\/html", <\/api\/v1\/tasks\?per_page=1&page=1>; rel="first"/,
      );
      assert.doesNotMatch(`${res.headers.link} ${res.body}`, /evil|99999|a b/);
    }
    // An absolute-form target (RFC 9112 §3.2.2) names the same resource as its path; its authority is the client's word.
    const absolute = await exchange(
      server.port,
      `GET http://evil.example/api/v1/tasks?per_page=1 HTTP/1.1\r\nHost: evil.example\r\n${auth}Connection: close\r\n\r\n`,
    );
    assert.equal(absolute.status, 200, absolute.body);
    assert.equal(JSON.parse(absolute.body).links.first, '/api/v1/tasks?per_page=1&page=1');
    assert.equal(JSON.parse(absolute.body).meta.path, '/api/v1/tasks');
    assert.doesNotMatch(`${absolute.headers.link} ${absolute.body}`, /evil/);
    for (const host of ['', 'Host: a b\r\n', 'Host: x:99999\r\n']) {
      const version = host ? '1.1' : '1.0';
      const res = await exchange(server.port, `GET /api/v1/organization HTTP/${version}\r\n${host}Connection: close\r\n\r\n`);
      assertErrorBody(res, 401, 'unauthenticated');
    }
  });
});
