import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { formatMoney, parseMoney } from '../../src/modules/courses/money.ts';
import { assertError } from '../support/errors.ts';
import { type Fixtures, fixtures } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

describe('GET /courses and /courses/{course}', () => {
  let app: TestApp;
  let f: Fixtures;
  let token: string;
  const get = (url: string, secret = token) => app.http.inject({ method: 'GET', url, headers: bearer(secret) });
  const slugs = async (query: string) => {
    const res = await get(`/api/v1/courses?per_page=100&${query}`);
    assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
    return res.json().data.map((c: { slug: string }) => c.slug) as string[];
  };

  before(async () => {
    app = await createTestApp();
    f = fixtures(app.platform);
    token = await app.token(['courses:read']);
    const at = (day: number) => `2026-0${day}-01T00:00:00.000Z`;
    await f.course({ slug: 'welding', title: 'Welding', price_minor: 90_000, status: 'published', created_at: at(1), updated_at: at(1) });
    await f.course({
      slug: 'accounting',
      title: 'Accounting',
      price_minor: 45_000,
      status: 'draft',
      published_at: null,
      created_at: at(2),
      updated_at: at(5),
    });
    await f.course({
      slug: 'bookkeeping',
      title: 'Bookkeeping',
      price_minor: 45_000,
      status: 'archived',
      created_at: at(3),
      updated_at: at(3),
    });
    await f.course({
      slug: 'carpentry',
      title: 'Carpentry',
      price_minor: 12_050,
      status: 'review',
      published_at: null,
      created_at: at(4),
      updated_at: at(4),
    });
    await f.course({ slug: 'driving', title: 'Driving', price_minor: 30_000, status: 'published', created_at: at(5), updated_at: at(2) });
  });

  test('lists every course in id order with the list envelope, money as a decimal string', async () => {
    const res = await get('/api/v1/courses');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(
      body.data.map((c: { slug: string }) => c.slug),
      ['welding', 'accounting', 'bookkeeping', 'carpentry', 'driving'],
    );
    assert.equal(body.meta.total, 5);
    const welding = body.data[0];
    assert.equal(welding.price, '900.00');
    assert.equal(welding.currency, 'EUR');
    assert.equal(welding.status, 'published');
    assert.equal(welding.code, 'WELDING');
    assert.equal(welding.language, 'en');
    assert.equal(welding.created_at, '2026-01-01T00:00:00.000Z');
    assert.equal(body.data[3].price, '120.50');
    assert.deepEqual(Object.keys(welding), [
      'id',
      'slug',
      'code',
      'title',
      'description',
      'price',
      'currency',
      'language',
      'status',
      'published_at',
      'archived_at',
      'created_at',
      'updated_at',
    ]);
  });

  test('active=1|true keeps published courses; active=0|false every other state; another value is a 422', async () => {
    for (const value of ['1', 'true']) assert.deepEqual(await slugs(`active=${value}`), ['welding', 'driving']);
    for (const value of ['0', 'false']) assert.deepEqual(await slugs(`active=${value}`), ['accounting', 'bookkeeping', 'carpentry']);
    const res = await get('/api/v1/courses?active=yes');
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'validation_failed');
    assert.ok(res.json().errors.active);
  });

  test('sorts by title, price, created_at and updated_at in both directions; ties broken by id', async () => {
    assert.deepEqual(await slugs('sort=title'), ['accounting', 'bookkeeping', 'carpentry', 'driving', 'welding']);
    assert.deepEqual(await slugs('sort=title&direction=desc'), ['welding', 'driving', 'carpentry', 'bookkeeping', 'accounting']);
    // accounting and bookkeeping cost the same: id decides, in the same direction.
    assert.deepEqual(await slugs('sort=price'), ['carpentry', 'driving', 'accounting', 'bookkeeping', 'welding']);
    assert.deepEqual(await slugs('sort=price&direction=desc'), ['welding', 'bookkeeping', 'accounting', 'driving', 'carpentry']);
    assert.deepEqual(await slugs('sort=created_at&direction=desc'), ['driving', 'carpentry', 'bookkeeping', 'accounting', 'welding']);
    assert.deepEqual(await slugs('sort=updated_at'), ['welding', 'driving', 'bookkeeping', 'carpentry', 'accounting']);
    for (const query of ['sort=slug', 'direction=sideways'])
      assertError(await get(`/api/v1/courses?${query}`), 422, 'validation_failed', query);
  });

  test('paginates with per_page and page; a page past the end is empty', async () => {
    const first = (await get('/api/v1/courses?per_page=2')).json();
    assert.equal(first.data.length, 2);
    assert.equal(first.meta.last_page, 3);
    assert.match(first.links.next, /page=2/);
    const last = (await get('/api/v1/courses?per_page=2&page=3')).json();
    assert.deepEqual(
      last.data.map((c: { slug: string }) => c.slug),
      ['driving'],
    );
    assert.deepEqual((await get('/api/v1/courses?per_page=2&page=9')).json().data, []);
    assertError(await get('/api/v1/courses?per_page=0'), 422, 'validation_failed');
  });

  test('updated_since keeps the courses changed at or after the time', async () => {
    assert.deepEqual(await slugs('updated_since=2026-04-01T00:00:00Z'), ['accounting', 'carpentry']);
    assert.deepEqual(await slugs('updated_since=2026-05-01T00:00:00.001Z'), []);
    assertError(await get('/api/v1/courses?updated_since=last-week'), 422, 'validation_failed');
  });

  test('GET /courses/{slug} reads one course; an unknown or malformed slug is the same 404', async () => {
    const res = await get('/api/v1/courses/welding');
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().data.slug, 'welding');
    assert.equal(res.json().data.title, 'Welding');
    const missing = await get('/api/v1/courses/pottery');
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().code, 'not_found');
    for (const slug of ['Welding', 'welding-', '-welding', 'wel--ding', 'wel_ding', 'a'.repeat(101), '%20welding', 'welding%2F']) {
      const res = await get(`/api/v1/courses/${slug}`);
      assert.equal(res.statusCode, 404, slug);
      assert.equal(res.json().code, 'not_found', slug);
      assert.equal(res.body, missing.body, slug);
    }
  });

  test('needs a token (401) holding courses:read (403)', async () => {
    for (const url of ['/api/v1/courses', '/api/v1/courses/welding']) {
      const none = await app.http.inject({ method: 'GET', url });
      assert.equal(none.statusCode, 401);
      assert.equal(none.json().code, 'unauthenticated');
      const wrong = await get(url, await app.token(['enrolments:read']));
      assert.equal(wrong.statusCode, 403);
      assert.equal(wrong.json().code, 'insufficient_scope');
      assert.match(String(wrong.headers['www-authenticate']), /scope="courses:read"/);
      assert.equal((await get(url, await app.token(['*']))).statusCode, 200);
    }
    // The scope is checked before the route: a missing course with no scope is a 403, not a 404.
    assertError(await get('/api/v1/courses/pottery', await app.token(['tasks:read'])), 403, 'insufficient_scope');
  });
});

describe('money', () => {
  test('minor units become a decimal string with the currency’s minor-unit digits, and back', () => {
    assert.equal(formatMoney(45_000, 'EUR'), '450.00');
    assert.equal(formatMoney(5, 'EUR'), '0.05');
    assert.equal(formatMoney(0, 'USD'), '0.00');
    assert.equal(formatMoney(45_000, 'JPY'), '45000');
    assert.equal(formatMoney(450_500, 'BHD'), '450.500');
    assert.equal(parseMoney('450.00', 'EUR'), 45_000);
    assert.equal(parseMoney('450', 'EUR'), 45_000);
    assert.equal(parseMoney('450.5', 'EUR'), 45_050);
    assert.equal(parseMoney('450.001', 'EUR'), null);
    assert.equal(parseMoney('450.5', 'JPY'), null);
    assert.equal(parseMoney('-1', 'EUR'), null);
    assert.equal(parseMoney('1e3', 'EUR'), null);
  });
});
