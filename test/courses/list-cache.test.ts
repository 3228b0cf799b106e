import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { entityTag } from '../../src/http/conventions.ts';
import { operatorContext } from '../../src/platform/context.ts';
import { jsonError, runCli } from '../support/cli.ts';
import { seenAfterRemoteWrite } from '../support/eventually.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';
import { runAcademy } from '../support/process.ts';

/**
 * GET /courses keeps pages in memory; every write of a course, in this process or another one, must
 * be seen by the next read. Each test reads the list first (twice, so that the page is cached), then
 * writes, then reads again.
 */
describe('GET /courses after a course changes', () => {
  let app: TestApp;
  let token: string;
  let env: Record<string, string>;

  const list = async (query = '') => {
    const res = await app.http.inject({ method: 'GET', url: `/api/v1/courses?per_page=100${query}`, headers: bearer(token) });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { data: { slug: string; status: string }[]; meta: { total: number } };
    return {
      slugs: body.data.map((c) => c.slug),
      statuses: Object.fromEntries(body.data.map((c) => [c.slug, c.status])),
      total: body.meta.total,
    };
  };
  /** Reads the list twice (the second read comes from the cache) and returns what it showed. */
  const cached = async (query = '') => {
    const first = await list(query);
    assert.deepEqual(await list(query), first);
    return first;
  };
  const course = (slug: string) => ({ slug, title: slug, code: slug.toUpperCase(), price: '10.00', currency: 'EUR', language: 'en' });
  const admin = async (...args: string[]) => {
    const result = await runCli(['--json', 'admin', ...args], env);
    assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr && jsonError(result.stderr)}`);
    return JSON.parse(result.stdout);
  };

  const seen = <T>(probe: () => Promise<T>, what: string) => seenAfterRemoteWrite(app.platform.database.dialect, probe, what);
  /** Lists until the course with `slug` is there (see `seen`), and checks it was added at the end, counted. */
  const listedAfter = async (before: Awaited<ReturnType<typeof list>>, slug: string, what: string) => {
    const listed = await seen(async () => {
      const now = await list();
      return now.slugs.includes(slug) && now;
    }, what);
    assert.deepEqual(listed.slugs, [...before.slugs, slug]);
    assert.equal(listed.total, before.total + 1);
  };

  before(async () => {
    app = await createTestApp();
    token = await app.token(['courses:read']);
    env = { DATABASE_URL: app.platform.database.url, ACADEMY_DATA_DIR: app.platform.config.dataDir };
  });

  test('a course created and moved in this process is listed, counted and filtered at once', async () => {
    const courses = app.services.courses;
    const ctx = operatorContext(app.platform);
    const before = await cached();
    const activeBefore = await cached('&active=1');

    await courses.create(ctx, course('in-process'));
    const created = await list();
    assert.deepEqual(created.slugs, [...before.slugs, 'in-process']);
    assert.equal(created.total, before.total + 1);
    assert.equal(created.statuses['in-process'], 'draft');

    for (const to_state of ['review', 'approved', 'published'] as const) {
      await courses.transition(ctx, 'in-process', { to_state });
      assert.equal((await list()).statuses['in-process'], to_state);
    }
    const active = await list('&active=1');
    assert.deepEqual(active.slugs, [...activeBefore.slugs, 'in-process']);
    assert.equal(active.total, activeBefore.total + 1);
  });

  test('a course created and moved by `academy admin` over another connection is listed', async () => {
    const before = await cached();
    await admin('courses', 'create', '--data', JSON.stringify(course('by-admin')));
    await listedAfter(before, 'by-admin', 'the course created over another connection');

    await cached('&active=0');
    await admin('courses', 'transition', 'by-admin', '--data', JSON.stringify({ to_state: 'review' }));
    await seen(async () => (await list()).statuses['by-admin'] === 'review', 'the transition made over another connection');
    assert.ok((await list('&active=0')).slugs.includes('by-admin'));
  });

  test('a course created and moved by `academy admin` in another process is listed', async () => {
    const before = await cached();
    const created = await runAcademy(['--json', 'admin', 'courses', 'create', '--data', JSON.stringify(course('other-process'))], env);
    assert.equal(created.code, 0, created.stderr);
    await listedAfter(before, 'other-process', 'the course created in another process');

    await cached();
    const moved = await runAcademy(['--json', 'admin', 'courses', 'transition', 'other-process', '--data', '{"to_state":"review"}'], env);
    assert.equal(moved.code, 0, moved.stderr);
    await seen(async () => (await list()).statuses['other-process'] === 'review', 'the transition made in another process');
  });

  test('a cached page is sent as the same text and ETag for its URL, with its own links, until a course changes', async () => {
    const get = (url: string, headers: Record<string, string> = {}) =>
      app.http.inject({ method: 'GET', url, headers: { ...bearer(token), ...headers } });
    const url = '/api/v1/courses?per_page=2';
    const first = await get(url);
    const again = await get(url);
    assert.equal(again.body, first.body);
    assert.equal(again.headers.etag, first.headers.etag);
    assert.equal(again.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(again.headers.etag, entityTag(again.body), 'the kept ETag is the hash of the text sent');
    assert.equal(again.headers.link, first.headers.link, 'the Link header is set on every request');
    // Another URL over the same cached data: its own page and links.
    const second = await get('/api/v1/courses?per_page=2&page=2');
    assert.notEqual(second.body, first.body);
    assert.match(second.json().links.prev, /page=1/);
    assert.equal((await get(url, { 'if-none-match': first.headers.etag as string })).statusCode, 304);

    await app.services.courses.create(operatorContext(app.platform), course('changes-text'));
    const changed = await get(url);
    assert.notEqual(changed.json().meta.total, first.json().meta.total);
    assert.notEqual(changed.headers.etag, first.headers.etag);
    assert.equal(changed.headers.etag, entityTag(changed.body));
    assert.equal((await get(url, { 'if-none-match': first.headers.etag as string })).statusCode, 200);
  });

  test('a cached page is sent compressed as the client asks, the compressed bytes kept with it', async () => {
    const get = (headers: Record<string, string>) =>
      app.http.inject({ method: 'GET', url: '/api/v1/courses?per_page=50', headers: { ...bearer(token), ...headers } });
    const plain = await get({});
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.ok(plain.body.length >= 1024, 'a page worth compressing');
    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0.5, br;q=0.4', 'gzip'],
      ['*', 'br'],
      ['identity', undefined],
      ['br;q=0, gzip;q=0', undefined],
    ] as const) {
      const first = await get({ 'accept-encoding': accept });
      const again = await get({ 'accept-encoding': accept });
      assert.equal(first.statusCode, 200);
      assert.equal(first.headers['content-encoding'], expected, accept);
      assert.equal(first.headers.etag, plain.headers.etag, 'one ETag for every encoding');
      assert.deepEqual(again.rawPayload, first.rawPayload, 'the same bytes again');
      const text =
        expected === 'br' ? brotliDecompressSync(first.rawPayload) : expected === 'gzip' ? gunzipSync(first.rawPayload) : first.rawPayload;
      assert.equal(text.toString(), plain.body, accept);
      if (expected) {
        assert.match(String(first.headers.vary), /Accept-Encoding/i);
        assert.match(String(first.headers.vary), /Authorization/);
        assert.equal(Number(first.headers['content-length']), first.rawPayload.length);
      }
    }
    const noCompression = await get({ 'accept-encoding': 'br', 'x-no-compression': '1' });
    assert.equal(noCompression.headers['content-encoding'], undefined);
    const notModified = await get({ 'accept-encoding': 'br', 'if-none-match': plain.headers.etag as string });
    assert.equal(notModified.statusCode, 304);
    assert.equal(notModified.headers['content-encoding'], undefined);
    assert.equal(notModified.body, '');
  });
});
