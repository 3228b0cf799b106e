import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { assertError } from '../support/errors.ts';
import { fixtures, unique } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** One PATCH endpoint: where a fresh resource lives, and a body that changes it (different each call). */
interface Target {
  name: string;
  url: () => Promise<string>;
  change: (n: number) => Record<string, unknown>;
}

describe('If-Match on every PATCH', () => {
  let app: TestApp;
  let token: string;
  let targets: Target[];

  before(async () => {
    const rules = path.join(tmpdir(), `academy-if-match-types-${process.pid}.json`);
    writeFileSync(rules, JSON.stringify({ profile_document: { max_bytes: 4096, media_types: ['image/png'] } }));
    app = await createTestApp({ env: { ACADEMY_DOCUMENT_TYPES_FILE: rules } });
    token = await app.token(['*']);
    const make = fixtures(app.platform);
    targets = [
      { name: 'organization', url: async () => '/api/v1/organization', change: (n) => ({ name: `Academy ${n}` }) },
      { name: 'user', url: async () => `/api/v1/users/${(await make.staff()).id}`, change: (n) => ({ job_title: `Title ${n}` }) },
      {
        name: 'document',
        url: async () => {
          const form = new FormData();
          form.append('type', 'profile_document');
          form.append('file', new Blob([PNG], { type: 'image/png' }), 'face.png');
          const body = new Request('http://x/', { method: 'POST', body: form });
          const res = await app.http.inject({
            method: 'POST',
            url: '/api/v1/documents',
            headers: { ...bearer(token), 'content-type': body.headers.get('content-type') as string },
            payload: Buffer.from(await body.arrayBuffer()),
          });
          assert.equal(res.statusCode, 201, res.body);
          return `/api/v1/documents/${res.json().data.id}`;
        },
        change: (n) => ({ title: `Title ${n}` }),
      },
    ];
  });

  const get = (url: string) => app.http.inject({ method: 'GET', url, headers: bearer(token) });
  const patch = (url: string, body: Record<string, unknown>, ifMatch?: string) =>
    app.http.inject({
      method: 'PATCH',
      url,
      headers: { ...bearer(token), ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }) },
      payload: body,
    });

  test('the tests below cover every PATCH operation, and each documents If-Match and its 412', async () => {
    const document = app.http.swagger() as unknown as {
      paths: Record<string, Record<string, { parameters?: { name?: string; $ref?: string }[]; responses: object }>>;
    };
    const patched = Object.entries(document.paths).filter(([, operations]) => operations.patch);
    assert.deepEqual(patched.map(([url]) => url).sort(), ['/api/v1/documents/{document}', '/api/v1/organization', '/api/v1/users/{user}']);
    for (const [url, operations] of patched) {
      assert.ok('412' in (operations.patch?.responses ?? {}), `${url} documents its 412`);
      assert.ok(
        operations.patch?.parameters?.some((p) => p.name === 'If-Match' || p.$ref === '#/components/parameters/IfMatch'),
        `${url} documents If-Match`,
      );
    }
  });

  test('a stale ETag is a 412 precondition_failed and changes nothing', async () => {
    for (const target of targets) {
      const url = await target.url();
      const stale = (await get(url)).headers.etag as string;
      assert.equal((await patch(url, target.change(1))).statusCode, 200, target.name);
      const before = await get(url);
      for (const condition of [stale, `"other", ${stale}`, `W/${before.headers.etag}`, '']) {
        const res = await patch(url, target.change(2), condition);
        assert.equal(res.statusCode, 412, `${target.name}: ${condition}`);
        assert.deepEqual(res.json(), {
          message: 'The resource has changed since it was read (If-Match); fetch it again and retry.',
          code: 'precondition_failed',
        });
      }
      const after = await get(url);
      assert.equal(after.headers.etag, before.headers.etag, `${target.name} is unchanged`);
      assert.equal(after.body, before.body);
    }
  });

  test('the current ETag (alone or in a list) and * let the change through', async () => {
    for (const target of targets) {
      const url = await target.url();
      const current = (await get(url)).headers.etag as string;
      const res = await patch(url, target.change(3), current);
      assert.equal(res.statusCode, 200, `${target.name}: ${res.body}`);
      const next = (await get(url)).headers.etag as string;
      assert.notEqual(next, current);
      assert.equal((await patch(url, target.change(4), `"unrelated", ${next}`)).statusCode, 200, target.name);
      const star = await patch(url, target.change(5), '*');
      assert.equal(star.statusCode, 200, target.name);
      assert.deepEqual((await get(url)).json(), star.json(), `${target.name}: the PATCH answers what a GET then shows`);
    }
  });

  test('If-Match on a resource that does not exist is a 404, even with *', async () => {
    for (const [url, body] of [
      ['/api/v1/users/999999', { job_title: 'x' }],
      ['/api/v1/documents/999999', { title: 'x' }],
    ] as const) {
      assertError(await patch(url, body, '*'), 404, 'not_found', url);
    }
  });

  test('two PATCHes sent at once with the same ETag: one succeeds, the other is a 412', async () => {
    for (const target of targets) {
      const url = await target.url();
      for (let round = 0; round < 5; round++) {
        const etag = (await get(url)).headers.etag as string;
        const values = [target.change(10 + round * 2), target.change(11 + round * 2)];
        const results = await Promise.all(values.map((body) => patch(url, body, etag)));
        const statuses = results.map((r) => r.statusCode).sort();
        assert.deepEqual(statuses, [200, 412], `${target.name}, round ${round}`);
        const winner = results.find((r) => r.statusCode === 200);
        assert.equal((await get(url)).body, winner?.body, 'the winning change is the one kept');
      }
    }
  });

  test('without If-Match a PATCH is unconditional', async () => {
    const url = `/api/v1/users/${(await fixtures(app.platform).staff({ name: unique('Plain') })).id}`;
    assert.equal((await patch(url, { job_title: 'A' })).statusCode, 200);
    assert.equal((await patch(url, { job_title: 'B' })).statusCode, 200);
  });
});
