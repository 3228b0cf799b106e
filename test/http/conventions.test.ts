import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance, onSendHookHandler } from 'fastify';
import { Type } from 'typebox';
import { buildApp } from '../../src/assembly/app.ts';
import { hookList } from '../../src/http/route-hooks.ts';
import { IdParam } from '../../src/http/schemas.ts';
import { bearer, createClosableApp, createTestAssembly } from '../support/platform.ts';

const ORG = '/api/v1/organization';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Test-only routes: one that fails the way a bug would, one addressed by a numeric id. */
async function testRoutes(http: FastifyInstance) {
  http.get('/api/v1/explode', { config: { access: { scope: 'organization:read' } } }, async () => {
    throw new Error('relation "secret_table" does not exist: select password from secret_table where id = 1');
  });
  // Answers through reply.send() after a read and resolves with nothing, while the last hook of its
  // answer goes on later (as one that waited on Redis did): what that hook's callback throws is thrown
  // outside any request.
  http.addHook('onRoute', (route) => {
    if (route.url !== '/api/v1/late') return;
    const later: onSendHookHandler = (_request, _reply, payload, done) => void setTimeout(() => done(null, payload), 10);
    route.onSend = [...hookList(route.onSend), later] as never;
  });
  http.get('/api/v1/late', { config: { access: { scope: 'organization:read' } } }, (_request, reply) =>
    Promise.resolve().then(() => void reply.send({ data: 'late' })),
  );
  http.get(
    '/api/v1/things/:id',
    { config: { access: { scope: 'organization:read' } }, schema: { params: Type.Object({ id: IdParam }) } },
    async (request) => ({ data: { id: (request.params as { id: number }).id } }),
  );
}

describe('HTTP conventions', () => {
  let http: FastifyInstance;
  let reader: string;
  let writer: string;

  before(async () => {
    const assembly = await createTestAssembly();
    const { platform } = assembly;
    http = (await buildApp(assembly, { register: testRoutes })).http;
    reader = (await platform.tokens.create({ name: 'r', scopes: ['organization:read'] })).token;
    writer = (await platform.tokens.create({ name: 'w', scopes: ['organization:read', 'organization:write'] })).token;
  });
  after(() => http.close());

  test('every answer says X-Content-Type-Options: nosniff (a JSON body, an error, a probe)', async () => {
    for (const [url, headers] of [
      [ORG, bearer(reader)],
      [ORG, {}],
      ['/livez', {}],
      ['/no/such/path', {}],
    ] as const) {
      const res = await http.inject({ method: 'GET', url, headers });
      assert.equal(res.headers['x-content-type-options'], 'nosniff', url);
    }
  });

  test('X-Request-Id: minted as a UUID, echoed when sane, replaced when not', async () => {
    const minted = await http.inject({ method: 'GET', url: '/livez' });
    assert.match(minted.headers['x-request-id'] as string, UUID);
    const other = await http.inject({ method: 'GET', url: '/livez' });
    assert.notEqual(other.headers['x-request-id'], minted.headers['x-request-id']);

    for (const sane of ['abc-123', 'trace:1.2_3', 'x'.repeat(128)]) {
      const res = await http.inject({ method: 'GET', url: ORG, headers: { ...bearer(reader), 'x-request-id': sane } });
      assert.equal(res.headers['x-request-id'], sane);
    }
    for (const insane of ['has spaces', 'x'.repeat(129), 'new\\nline', '<script>', '']) {
      const res = await http.inject({ method: 'GET', url: ORG, headers: { ...bearer(reader), 'x-request-id': insane } });
      assert.match(res.headers['x-request-id'] as string, UUID, JSON.stringify(insane));
    }
    const error = await http.inject({ method: 'GET', url: ORG, headers: { 'x-request-id': 'on-an-error' } });
    assert.equal(error.statusCode, 401);
    assert.equal(error.json().code, 'unauthenticated');
    assert.equal(error.headers['x-request-id'], 'on-an-error', 'error responses carry it too');
  });

  test('ETag on GET; a matching If-None-Match is a 304 without a body until the resource changes', async () => {
    const first = await http.inject({ method: 'GET', url: ORG, headers: bearer(reader) });
    const etag = first.headers.etag as string;
    assert.match(etag, /^"[^"]+"$/);
    const again = await http.inject({ method: 'GET', url: ORG, headers: bearer(reader) });
    assert.equal(again.headers.etag, etag, 'the same representation has the same ETag');

    for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const cached = await http.inject({ method: 'GET', url: ORG, headers: { ...bearer(reader), 'if-none-match': condition } });
      assert.equal(cached.statusCode, 304, condition);
      assert.equal(cached.body, '');
      assert.equal(cached.headers.etag, etag);
    }
    const mismatch = await http.inject({ method: 'GET', url: ORG, headers: { ...bearer(reader), 'if-none-match': '"stale"' } });
    assert.equal(mismatch.statusCode, 200);

    const changed = await http.inject({ method: 'PATCH', url: ORG, headers: bearer(writer), payload: { name: 'Changed for ETag' } });
    assert.equal(changed.statusCode, 200);
    const fresh = await http.inject({ method: 'GET', url: ORG, headers: { ...bearer(reader), 'if-none-match': etag } });
    assert.equal(fresh.statusCode, 200, 'the old ETag no longer matches');
    assert.equal(fresh.json().data.name, 'Changed for ETag');
    assert.notEqual(fresh.headers.etag, etag);
  });

  test('a handler that resolves with nothing after its answer began gets one answer, and the process goes on', async () => {
    const errors: unknown[] = [];
    const seen = (error: unknown) => errors.push(error);
    process.on('uncaughtException', seen);
    process.on('unhandledRejection', seen);
    // A real socket: a second answer's headers are refused by Node's response, not by an injected one.
    const base = await http.listen({ port: 0, host: '127.0.0.1' });
    try {
      for (const conditional of [false, true]) {
        const headers = { ...bearer(reader), ...(conditional ? { 'if-none-match': '*' } : {}) };
        const res = await fetch(`${base}/api/v1/late`, { headers });
        assert.equal(res.status, conditional ? 304 : 200);
        await res.arrayBuffer();
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(errors, [], 'no error escaped the request');
    } finally {
      process.off('uncaughtException', seen);
      process.off('unhandledRejection', seen);
    }
  });

  test('unknown routes and malformed ids are the same JSON 404 not_found', async () => {
    const bodies = new Set<string>();
    const cases: [string, Record<string, string>][] = [
      ['/api/v1/no-such-thing', bearer(reader)],
      ['/api/v1/no-such-thing', {}],
      ['/nowhere', {}],
      ['/api/v1/things/abc', bearer(reader)],
      ['/api/v1/things/0', bearer(reader)],
      ['/api/v1/things/-1', bearer(reader)],
      ['/api/v1/things/1.5', bearer(reader)],
      ['/api/v1/things/99999999999', bearer(reader)],
      // Ids the validator would coerce to 7: only the canonical spelling addresses the resource.
      ['/api/v1/things/7.0', bearer(reader)],
      ['/api/v1/things/07', bearer(reader)],
      ['/api/v1/things/0x7', bearer(reader)],
      ['/api/v1/things/+7', bearer(reader)],
      ['/api/v1/things/7e0', bearer(reader)],
      ['/api/v1/things/%207', bearer(reader)],
      // A path whose percent-encoding cannot be decoded.
      ['/api/v1/things/%E0%A4%A', bearer(reader)],
      ['/api/v1/tasks/%E0%A4%A', bearer(reader)],
    ];
    for (const [url, headers] of cases) {
      const res = await http.inject({ method: 'GET', url, headers });
      assert.equal(res.statusCode, 404, url);
      assert.match(res.headers['content-type'] as string, /^application\/json/);
      assert.equal(res.json().code, 'not_found');
      bodies.add(res.body);
    }
    assert.equal(bodies.size, 1, 'byte-identical bodies');
    const found = await http.inject({ method: 'GET', url: '/api/v1/things/7', headers: bearer(reader) });
    assert.deepEqual(found.json(), { data: { id: 7 } });
  });

  test('every error body has message and code, and never a stack, SQL or a file path', async () => {
    const responses = [
      await http.inject({ method: 'GET', url: ORG }),
      await http.inject({ method: 'PATCH', url: ORG, headers: bearer(reader), payload: { name: 'x' } }),
      await http.inject({ method: 'GET', url: '/api/v1/nope', headers: bearer(reader) }),
      await http.inject({ method: 'PATCH', url: ORG, headers: bearer(writer), payload: { timezone: 'Nope/Nope' } }),
      await http.inject({
        method: 'PATCH',
        url: ORG,
        headers: { ...bearer(writer), 'content-type': 'application/json' },
        payload: '{"name":',
      }),
      await http.inject({ method: 'PATCH', url: ORG, headers: { ...bearer(writer), 'content-type': 'text/plain' }, payload: 'x' }),
      await http.inject({ method: 'GET', url: '/api/v1/explode', headers: bearer(reader) }),
    ];
    assert.deepEqual(
      responses.map((r) => r.statusCode),
      [401, 403, 404, 422, 400, 415, 500],
    );
    for (const res of responses) {
      const body = res.json();
      assert.equal(typeof body.message, 'string', res.body);
      assert.match(body.code, /^[a-z]+(_[a-z]+)*$/, res.body);
      assert.deepEqual(
        Object.keys(body).filter((k) => !['message', 'code', 'errors'].includes(k)),
        [],
        res.body,
      );
      assert.doesNotMatch(res.body, /secret_table|select |\bat \S+:\d+|\.ts\b|\/src\/|node_modules|stack/i, res.body);
    }
    assert.deepEqual(responses.at(-1)?.json(), { message: 'An unexpected error occurred.', code: 'internal_error' });
  });

  test('/livez and /readyz answer 200; /metrics counts requests by route', async () => {
    assert.equal((await http.inject({ method: 'GET', url: '/livez' })).statusCode, 200);
    assert.equal((await http.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
    await http.inject({ method: 'GET', url: ORG, headers: bearer(reader) });
    const metrics = await http.inject({ method: 'GET', url: '/metrics' });
    assert.equal(metrics.statusCode, 200);
    assert.match(metrics.headers['content-type'] as string, /^text\/plain/);
    assert.match(metrics.body, /^academy_http_requests_total\{method="GET",route="\/api\/v1\/organization",status="200"\} [1-9]\d*$/m);
    assert.match(metrics.body, /academy_http_request_duration_seconds_bucket\{/);
  });

  test('/metrics on the API port answers only loopback clients, unless ACADEMY_METRICS_PUBLIC=true', async () => {
    const notFound = (await http.inject({ method: 'GET', url: '/nowhere' })).body;
    for (const remoteAddress of ['203.0.113.7', '10.0.0.5', '::ffff:192.0.2.1', '2001:db8::1']) {
      const res = await http.inject({ method: 'GET', url: '/metrics', remoteAddress });
      assert.equal(res.statusCode, 404, remoteAddress);
      assert.equal(res.json().code, 'not_found', remoteAddress);
      assert.equal(res.body, notFound, 'the same 404 as a path that does not exist');
    }
    for (const remoteAddress of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      assert.equal((await http.inject({ method: 'GET', url: '/metrics', remoteAddress })).statusCode, 200, remoteAddress);
    }
    const open = (await buildApp(await createTestAssembly({ env: { ACADEMY_METRICS_PUBLIC: 'true' } }))).http;
    try {
      assert.equal((await open.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.7' })).statusCode, 200);
    } finally {
      await open.close();
    }
  });

  test('/readyz is a 503 once the database is gone', async () => {
    // A platform of its own: its database is closed by the test, not by the shared cleanup.
    const { app, platform, drop } = await createClosableApp();
    try {
      assert.equal((await app.http.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
      await platform.database.close();
      const res = await app.http.inject({ method: 'GET', url: '/readyz' });
      assert.equal(res.statusCode, 503);
      assert.equal(res.json().code, 'unavailable');
      assert.doesNotMatch(res.body, /destroyed|driver|pool/i);
      assert.equal((await app.http.inject({ method: 'GET', url: '/livez' })).statusCode, 200, 'the process itself is alive');
    } finally {
      await drop();
    }
  });
});
