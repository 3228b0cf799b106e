import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { MAX_BODY_VALUES } from '../../src/http/input.ts';
import { MAX_REPORTED_FIELDS } from '../../src/platform/validation.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

const ORG = '/api/v1/organization';

describe('input every route refuses', () => {
  let app: TestApp;
  let token: string;

  before(async () => {
    app = await createTestApp();
    token = await app.token(['*']);
  });

  const patch = (payload: unknown) =>
    app.http.inject({
      method: 'PATCH',
      url: ORG,
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });

  test('a NUL character in any string of the body is a 422 naming the field, and nothing is stored', async () => {
    const before = (await app.http.inject({ method: 'GET', url: ORG, headers: bearer(token) })).json().data;
    const cases: [unknown, string][] = [
      [{ name: 'a\u0000b' }, 'name'],
      [{ address: { city: '\u0000' } }, 'address.city'],
      [{ name: 'fine', legal_name: 'x\u0000' }, 'legal_name'],
      [{ 'na\u0000me': 'x' }, 'body'],
      ['\u0000', 'body'],
    ];
    for (const [payload, field] of cases) {
      const res = await patch(payload);
      assert.equal(res.statusCode, 422, JSON.stringify(payload));
      assert.equal(res.json().code, 'validation_failed');
      assert.deepEqual(Object.keys(res.json().errors), [field], res.body);
      assert.match(res.json().errors[field][0], /NUL/);
    }
    const after = (await app.http.inject({ method: 'GET', url: ORG, headers: bearer(token) })).json().data;
    assert.deepEqual(after, before);
  });

  test('a NUL character in a query parameter is a 422 naming it; in a path it addresses nothing (404)', async () => {
    const query = await app.http.inject({ method: 'GET', url: '/api/v1/integrations?integration_key=a%00b', headers: bearer(token) });
    assert.equal(query.statusCode, 422, query.body);
    assert.equal(query.json().code, 'validation_failed', query.body);
    assert.deepEqual(Object.keys(query.json().errors), ['integration_key']);
    const repeated = await app.http.inject({ method: 'GET', url: '/api/v1/tasks?task_type=x&task_type=%00', headers: bearer(token) });
    assert.equal(repeated.statusCode, 422, repeated.body);
    assert.equal(repeated.json().code, 'validation_failed', repeated.body);
    assert.deepEqual(Object.keys(repeated.json().errors), ['task_type.1']);

    const notFound = (await app.http.inject({ method: 'GET', url: '/api/v1/nowhere', headers: bearer(token) })).body;
    for (const url of ['/api/v1/health/a%00b', '/api/v1/health/%00', '/api/v1/tasks/a%00b', '/api/v1/integrations/1%00']) {
      const res = await app.http.inject({ method: 'GET', url, headers: bearer(token) });
      assert.equal(res.statusCode, 404, `${url}: ${res.body}`);
      assert.equal(res.json().code, 'not_found', `${url}: ${res.body}`);
      assert.equal(res.body, notFound, 'the one 404 body');
    }
  });

  test('a number in a query string or path that is too large to be finite is a 422 naming it, or in a path a 404', async () => {
    // Coerced from text, "1e309" would be Infinity: past every minimum and maximum, and refused by PostgreSQL.
    for (const query of ['user_id=1e309', 'user_id=-1e309', 'user_id=Infinity', 'per_page=1e999']) {
      const res = await app.http.inject({ method: 'GET', url: `/api/v1/notifications?${query}`, headers: bearer(token) });
      assert.equal(res.statusCode, 422, `${query}: ${res.body}`);
      assert.equal(res.json().code, 'validation_failed');
      const field = query.split('=')[0] as string;
      assert.deepEqual(res.json().errors, { [field]: [`The ${field} field must be a finite number.`] }, res.body);
    }
    const notFound = (await app.http.inject({ method: 'GET', url: '/api/v1/nowhere', headers: bearer(token) })).body;
    for (const url of ['/api/v1/tasks/1e309', '/api/v1/users/Infinity', '/api/v1/tasks/1/runs/-1e400', '/api/v1/notifications/1e309']) {
      const res = await app.http.inject({ method: 'GET', url, headers: bearer(token) });
      assert.equal(res.statusCode, 404, `${url}: ${res.body}`);
      assert.equal(res.json().code, 'not_found', `${url}: ${res.body}`);
      assert.equal(res.body, notFound, 'the one 404 body');
    }
    const finite = await app.http.inject({ method: 'GET', url: '/api/v1/notifications?user_id=1e3&per_page=1e1', headers: bearer(token) });
    assert.equal(finite.statusCode, 200, 'a finite number in exponent form is still a number');
    assert.equal(finite.json().meta.per_page, 10);
  });

  test('60,000 unknown keys get a small 422, quickly', async () => {
    const keys: Record<string, number> = {};
    for (let i = 0; i < 60_000; i++) keys[`field${i}`] = 1;
    const payload = JSON.stringify(keys);
    assert.ok(payload.length > 850_000, 'about the size of the reported attack');
    const started = performance.now();
    const res = await app.http.inject({
      method: 'PATCH',
      url: ORG,
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload,
    });
    const elapsed = performance.now() - started;
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'validation_failed');
    assert.ok(res.body.length < 8 * 1024, `${res.body.length} bytes`);
    assert.deepEqual(res.json().errors, { body: [`The body field must not hold more than ${MAX_BODY_VALUES} values.`] });
    assert.ok(elapsed < 2000, `${elapsed} ms`);
  });

  test('a 422 lists at most MAX_REPORTED_FIELDS fields and says that more were left out', async () => {
    const keys: Record<string, number> = {};
    for (let i = 0; i < 5000; i++) keys[`unknown_field_${i}`] = i;
    const res = await patch({ name: 7, ...keys });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'validation_failed');
    assert.ok(res.body.length < 8 * 1024, `${res.body.length} bytes`);
    const errors = res.json().errors as Record<string, string[]>;
    assert.equal(Object.keys(errors).length, MAX_REPORTED_FIELDS + 1);
    assert.match(errors._?.[0] ?? '', /only the first 20/);
    assert.deepEqual(errors.unknown_field_0, ['The unknown_field_0 field is not recognised.']);
  });

  test('a deeply nested body is refused, not a crash', async () => {
    const res = await app.http.inject({
      method: 'PATCH',
      url: ORG,
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().code, 'validation_failed', res.body);
  });
});
