import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

describe('HTTP niceties', () => {
  let app: TestApp;
  let token: string;

  before(async () => {
    app = await createTestApp({ env: { ACADEMY_CORS_ORIGINS: 'https://crm.example.org,http://localhost:5173' } });
    token = await app.token(['*']);
  });

  test('JSON above 1 KB is compressed with br or gzip when asked, and decodes to the same bytes', async () => {
    const plain = await app.http.inject({ method: 'GET', url: '/docs/json' });
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.rawPayload.length > 1024);
    const gzip = await app.http.inject({ method: 'GET', url: '/docs/json', headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.match(String(gzip.headers.vary), /accept-encoding/i);
    assert.deepEqual(gunzipSync(gzip.rawPayload), plain.rawPayload);
    const br = await app.http.inject({ method: 'GET', url: '/docs/json', headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.deepEqual(brotliDecompressSync(br.rawPayload), plain.rawPayload);
    assert.ok(br.rawPayload.length < plain.rawPayload.length / 3);
    const small = await app.http.inject({
      method: 'GET',
      url: '/api/v1/organization',
      headers: { ...bearer(token), 'accept-encoding': 'gzip' },
    });
    assert.equal(small.headers['content-encoding'], undefined, 'a small answer is sent as it is');
  });

  test('CORS: a preflight from an allowed origin is answered, exposed headers are listed, other origins get nothing', async () => {
    const preflight = await app.http.inject({
      method: 'OPTIONS',
      url: '/api/v1/organization',
      headers: {
        origin: 'https://crm.example.org',
        'access-control-request-method': 'PATCH',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], 'https://crm.example.org');
    assert.match(String(preflight.headers['access-control-allow-methods']), /PATCH/);
    assert.match(String(preflight.headers['access-control-allow-headers']), /Authorization/i);
    const get = await app.http.inject({
      method: 'GET',
      url: '/api/v1/organization',
      headers: { ...bearer(token), origin: 'https://crm.example.org' },
    });
    assert.equal(get.headers['access-control-allow-origin'], 'https://crm.example.org');
    const exposed = String(get.headers['access-control-expose-headers'])
      .split(',')
      .map((h) => h.trim().toLowerCase());
    for (const header of ['link', 'etag', 'ratelimit', 'ratelimit-policy', 'x-request-id', 'retry-after', 'location']) {
      assert.ok(exposed.includes(header), `${header} is exposed`);
    }
    const other = await app.http.inject({
      method: 'GET',
      url: '/api/v1/organization',
      headers: { ...bearer(token), origin: 'https://evil.example' },
    });
    assert.equal(other.headers['access-control-allow-origin'], undefined);
  });

  test('CORS: a 401 of the access check carries the CORS headers, so a browser script can read it', async () => {
    const origin = 'https://crm.example.org';
    const unauthenticated = await app.http.inject({ method: 'GET', url: '/api/v1/organization', headers: { origin } });
    assert.equal(unauthenticated.statusCode, 401);
    assert.equal(unauthenticated.json().code, 'unauthenticated');
    assert.equal(unauthenticated.headers['access-control-allow-origin'], origin);
    assert.match(String(unauthenticated.headers['access-control-expose-headers']), /RateLimit/);
    const wrongToken = await app.http.inject({
      method: 'GET',
      url: '/api/v1/organization',
      headers: { authorization: 'Bearer acad_not_a_real_token', origin },
    });
    assert.equal(wrongToken.statusCode, 401);
    assert.equal(wrongToken.json().code, 'unauthenticated');
    assert.equal(wrongToken.headers['access-control-allow-origin'], origin);
  });

  test('a known path with another method is a 405 with Allow; an unknown path stays a 404', async () => {
    const res = await app.http.inject({ method: 'DELETE', url: '/api/v1/organization', headers: bearer(token) });
    assert.equal(res.statusCode, 405);
    assert.equal(res.json().code, 'method_not_allowed');
    assert.deepEqual(
      String(res.headers.allow)
        .split(',')
        .map((m) => m.trim())
        .sort(),
      ['GET', 'HEAD', 'OPTIONS', 'PATCH'],
    );
    const item = await app.http.inject({ method: 'PUT', url: '/api/v1/documents/12', headers: bearer(token) });
    assert.equal(item.statusCode, 405);
    assert.equal(item.json().code, 'method_not_allowed');
    assert.match(String(item.headers.allow), /DELETE/);
    const unknown = await app.http.inject({ method: 'DELETE', url: '/api/v1/nothing-here', headers: bearer(token) });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, 'not_found');
  });

  test('authenticated GETs are private and vary by Authorization; every answer says when the quota resets', async () => {
    const res = await app.http.inject({ method: 'GET', url: '/api/v1/organization', headers: bearer(token) });
    assert.equal(res.headers['cache-control'], 'private, no-cache');
    assert.match(String(res.headers.vary), /Authorization/);
    const reset = Number(res.headers['x-ratelimit-reset']);
    assert.ok(reset > Date.now() / 1000 && reset <= Date.now() / 1000 + 61, `reset ${reset}`);
  });

  test('a 304 costs its request like any other (every request counts)', async () => {
    const quota = await app.token(['organization:read']);
    const first = await app.http.inject({ method: 'GET', url: '/api/v1/organization', headers: bearer(quota) });
    const remaining = Number(first.headers['x-ratelimit-remaining']);
    const etag = String(first.headers.etag);
    for (let i = 1; i <= 5; i++) {
      const cached = await app.http.inject({
        method: 'GET',
        url: '/api/v1/organization',
        headers: { ...bearer(quota), 'if-none-match': etag },
      });
      assert.equal(cached.statusCode, 304);
      assert.equal(Number(cached.headers['x-ratelimit-remaining']), remaining - i);
      assert.match(String(cached.headers.ratelimit), new RegExp(`;r=${remaining - i};`));
    }
    const next = await app.http.inject({ method: 'GET', url: '/api/v1/organization', headers: bearer(quota) });
    assert.equal(Number(next.headers['x-ratelimit-remaining']), remaining - 6, 'the 304s were counted');
  });
});

describe('without CORS configured', () => {
  test('OPTIONS on a known path answers 204 with Allow, and no CORS headers are sent', async () => {
    const app = await createTestApp();
    const res = await app.http.inject({ method: 'OPTIONS', url: '/api/v1/organization', headers: { origin: 'https://crm.example.org' } });
    assert.equal(res.statusCode, 204);
    assert.match(String(res.headers.allow), /GET/);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
  });
});
