import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { buildApp } from '../../src/assembly/app.ts';
import { ListOf, PageQuery, pageRequest, paginate } from '../../src/http/pagination.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { bearer, createTestAssembly } from '../support/platform.ts';

const Item = Type.Object({ id: Type.Integer() });

/** A test-only list over `count` items, paginated exactly as the resource lists are. */
function listRoutes(platform: Platform, count: number) {
  const items = Array.from({ length: count }, (_, i) => ({ id: i + 1 }));
  return async (http: FastifyInstance) => {
    for (const [url, list] of [
      ['/api/v1/items', items],
      ['/api/v1/empty', []],
    ] as const) {
      http.get(
        url,
        {
          config: { access: { scope: 'organization:read' } },
          schema: { querystring: Type.Object(PageQuery), response: { 200: ListOf(Item) } },
        },
        async (request, reply) => {
          const page = pageRequest(request.query as { page?: number; per_page?: number }, platform.config.maxPageSize);
          return paginate(request, reply, page, { items: list.slice(page.offset, page.offset + page.perPage), total: list.length });
        },
      );
    }
  };
}

async function appWith(env: Record<string, string> = {}) {
  const assembly = await createTestAssembly({ env });
  const { platform } = assembly;
  const { http } = await buildApp(assembly, { register: listRoutes(platform, 23) });
  const token = (await platform.tokens.create({ name: 'pages', scopes: ['organization:read'] })).token;
  return { http, token, get: (url: string) => http.inject({ method: 'GET', url, headers: bearer(token) }) };
}

function rels(link: string | string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of String(link).split(', ')) {
    const match = /^<([^>]+)>; rel="(\w+)"$/.exec(part);
    assert.ok(match, `Link part ${part}`);
    out[match[2] as string] = match[1] as string;
  }
  return out;
}

const ids = (body: { data: { id: number }[] }) => body.data.map((item) => item.id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('pagination', () => {
  let app: Awaited<ReturnType<typeof appWith>>;
  let small: Awaited<ReturnType<typeof appWith>>;

  before(async () => {
    app = await appWith();
    small = await appWith({ ACADEMY_MAX_PAGE_SIZE: '5' });
  });
  after(async () => {
    await app.http.close();
    await small.http.close();
  });

  test('the first page: 15 items by default, Laravel links and meta, and a Link header', async () => {
    const res = await app.get('/api/v1/items');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(ids(body), range(1, 15));
    assert.deepEqual(body.links, {
      first: '/api/v1/items?page=1&per_page=15',
      last: '/api/v1/items?page=2&per_page=15',
      prev: null,
      next: '/api/v1/items?page=2&per_page=15',
    });
    assert.deepEqual(body.meta, {
      current_page: 1,
      from: 1,
      last_page: 2,
      path: '/api/v1/items',
      per_page: 15,
      to: 15,
      total: 23,
    });
    assert.deepEqual(rels(res.headers.link), { first: body.links.first, last: body.links.last, next: body.links.next });
  });

  test('the last page links back and has no next', async () => {
    const body = (await app.get('/api/v1/items?page=2')).json();
    assert.deepEqual(ids(body), range(16, 23));
    assert.equal(body.links.prev, '/api/v1/items?page=1&per_page=15');
    assert.equal(body.links.next, null);
    assert.equal(body.meta.from, 16);
    assert.equal(body.meta.to, 23);
  });

  test('per_page is honoured, other query parameters survive in the links', async () => {
    const res = await app.get('/api/v1/items?per_page=10&page=2&sort=id');
    const body = res.json();
    assert.deepEqual(ids(body), range(11, 20));
    assert.equal(body.meta.last_page, 3);
    assert.equal(body.links.next, '/api/v1/items?per_page=10&page=3&sort=id');
    assert.deepEqual(Object.keys(rels(res.headers.link)).sort(), ['first', 'last', 'next', 'prev']);
  });

  test('per_page above ACADEMY_MAX_PAGE_SIZE is clamped to it', async () => {
    const body = (await small.get('/api/v1/items?per_page=50')).json();
    assert.deepEqual(ids(body), range(1, 5));
    assert.equal(body.meta.per_page, 5);
    assert.equal(body.meta.last_page, 5);
    assert.equal(body.links.last, '/api/v1/items?per_page=5&page=5');
    assert.equal((await small.get('/api/v1/items')).json().meta.per_page, 5, 'the default of 15 is clamped too');
    assert.equal((await app.get('/api/v1/items?per_page=1000')).json().meta.per_page, 100, 'the configured default maximum');
    // An integer past what a double holds exactly is still an integer, and as large as any other.
    for (const value of ['9007199254740993', '100000000000000000000000']) {
      const res = await app.get(`/api/v1/items?per_page=${value}`);
      assert.equal(res.statusCode, 200, `per_page=${value}: ${res.body}`);
      assert.equal(res.json().meta.per_page, 100, `per_page=${value}`);
    }
  });

  test('per_page or page of 0, negative, fractional or not a number is a 422 naming the parameter', async () => {
    for (const value of ['0', '-1', '1.5', 'abc', '', '1e309']) {
      const res = await app.get(`/api/v1/items?per_page=${value}`);
      assert.equal(res.statusCode, 422, `per_page=${value}`);
      assert.equal(res.json().code, 'validation_failed');
      assert.ok(Array.isArray(res.json().errors.per_page), `errors.per_page for ${value}`);
    }
    // 1e309 reads as Infinity, which the validator's integer check lets through.
    for (const value of ['0', '-3', '2.5', 'two', '2147483648', '100000000000000000000', '1e309']) {
      const res = await app.get(`/api/v1/items?page=${value}`);
      assert.equal(res.statusCode, 422, `page=${value}`);
      assert.equal(res.json().code, 'validation_failed', `page=${value}`);
      assert.ok(Array.isArray(res.json().errors.page), `errors.page for ${value}`);
    }
  });

  test('a page past the end is an empty list with correct meta', async () => {
    const res = await app.get('/api/v1/items?page=9');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(body.data, []);
    assert.deepEqual(body.meta, {
      current_page: 9,
      from: null,
      last_page: 2,
      path: '/api/v1/items',
      per_page: 15,
      to: null,
      total: 23,
    });
    assert.equal(body.links.next, null);
    assert.equal(body.links.last, '/api/v1/items?page=2&per_page=15');
  });

  test('an absolute-form request target is never copied into the links', async () => {
    const res = await app.http.inject({
      method: 'GET',
      url: 'http://evil.example/api/v1/items?page=2',
      headers: { ...bearer(app.token), host: 'evil.example' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.links.first, '/api/v1/items?page=1&per_page=15');
    assert.equal(body.meta.path, '/api/v1/items');
    assert.doesNotMatch(`${res.headers.link} ${res.body}`, /evil/);
  });

  test('links are relative by default and never take the Host header', async () => {
    const res = await app.http.inject({
      method: 'GET',
      url: '/api/v1/items?page=2',
      headers: { ...bearer(app.token), host: 'evil.example' },
    });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.links.first, '/api/v1/items?page=1&per_page=15');
    assert.equal(body.meta.path, '/api/v1/items');
    assert.doesNotMatch(`${res.headers.link} ${res.body}`, /evil/);
  });

  test('with ACADEMY_PUBLIC_URL, links are absolute under it', async () => {
    const prefixed = await appWith({ ACADEMY_PUBLIC_URL: 'https://academy.example.org/base/' });
    try {
      const res = await prefixed.http.inject({
        method: 'GET',
        url: '/api/v1/items?page=2&sort=id',
        headers: { ...bearer(prefixed.token), host: 'evil.example' },
      });
      const body = res.json();
      assert.deepEqual(body.links, {
        first: 'https://academy.example.org/base/api/v1/items?page=1&sort=id&per_page=15',
        last: 'https://academy.example.org/base/api/v1/items?page=2&sort=id&per_page=15',
        prev: 'https://academy.example.org/base/api/v1/items?page=1&sort=id&per_page=15',
        next: null,
      });
      assert.equal(body.meta.path, 'https://academy.example.org/base/api/v1/items');
      assert.deepEqual(rels(res.headers.link), { first: body.links.first, last: body.links.last, prev: body.links.prev });
    } finally {
      await prefixed.http.close();
    }
  });

  test('an empty list has one (empty) page', async () => {
    const body = (await app.get('/api/v1/empty')).json();
    assert.deepEqual(body.data, []);
    assert.equal(body.meta.total, 0);
    assert.equal(body.meta.last_page, 1);
    assert.equal(body.meta.from, null);
    assert.equal(body.links.next, null);
    assert.equal(body.links.prev, null);
  });
});
