import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

describe('organization', () => {
  let app: TestApp;
  let reader: string;
  let writer: string;

  before(async () => {
    app = await createTestApp();
    reader = await app.token(['organization:read']);
    writer = await app.token(['organization:read', 'organization:write']);
  });

  test('GET returns the singleton in a data envelope', async () => {
    const res = await app.http.inject({ method: 'GET', url: '/api/v1/organization', headers: bearer(reader) });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.data.name, 'Academy');
    assert.equal(body.data.timezone, 'UTC');
    assert.deepEqual(Object.keys(body.data.address).sort(), ['city', 'country', 'line1', 'line2', 'postal_code', 'region']);
  });

  test('PATCH changes only the fields sent, nested address fields included', async () => {
    await app.http.inject({
      method: 'PATCH',
      url: '/api/v1/organization',
      headers: bearer(writer),
      payload: { contact_email: 'office@example.org', address: { city: 'Leeds', country: 'GB' } },
    });
    const res = await app.http.inject({
      method: 'PATCH',
      url: '/api/v1/organization',
      headers: bearer(writer),
      payload: { name: 'Renamed Academy', address: { line1: '1 High Street' } },
    });
    assert.equal(res.statusCode, 200);
    const data = res.json().data;
    assert.equal(data.name, 'Renamed Academy');
    assert.equal(data.contact_email, 'office@example.org', 'a field not sent is unchanged');
    assert.equal(data.timezone, 'UTC');
    assert.deepEqual(data.address, { line1: '1 High Street', line2: null, city: 'Leeds', region: null, postal_code: null, country: 'GB' });
    const again = await app.http.inject({ method: 'GET', url: '/api/v1/organization', headers: bearer(reader) });
    assert.deepEqual(again.json().data, data, 'the change is persisted');
  });

  test('PATCH with null clears an optional field', async () => {
    const res = await app.http.inject({
      method: 'PATCH',
      url: '/api/v1/organization',
      headers: bearer(writer),
      payload: { contact_email: null },
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().data.contact_email, null);
  });

  test('a valid IANA timezone is accepted, a bad one is a 422 with errors.timezone', async () => {
    const ok = await app.http.inject({
      method: 'PATCH',
      url: '/api/v1/organization',
      headers: bearer(writer),
      payload: { timezone: 'Europe/Berlin' },
    });
    assert.equal(ok.json().data.timezone, 'Europe/Berlin');
    for (const timezone of ['Mars/Olympus_Mons', 'Europe/Berlin; DROP TABLE', '']) {
      const res = await app.http.inject({ method: 'PATCH', url: '/api/v1/organization', headers: bearer(writer), payload: { timezone } });
      assert.equal(res.statusCode, 422, timezone);
      const body = res.json();
      assert.equal(body.code, 'validation_failed');
      assert.ok(Array.isArray(body.errors.timezone) && body.errors.timezone.length > 0);
      assert.equal(typeof body.message, 'string');
    }
    const after = await app.http.inject({ method: 'GET', url: '/api/v1/organization', headers: bearer(reader) });
    assert.equal(after.json().data.timezone, 'Europe/Berlin', 'a rejected update changes nothing');
  });

  test('other invalid fields are 422 keyed by field (dot notation for nested ones)', async () => {
    const res = await app.http.inject({
      method: 'PATCH',
      url: '/api/v1/organization',
      headers: bearer(writer),
      payload: { contact_email: 'not-an-email', address: { country: 'Britain' }, unknown_field: 1, website: 'javascript:alert(1)' },
    });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'validation_failed');
    const errors = res.json().errors;
    assert.ok(errors.contact_email);
    assert.ok(errors['address.country']);
    assert.ok(errors.unknown_field);
    assert.ok(errors.website, 'only http(s) URLs are accepted as the website');
  });

  test('a 422 names every invalid field, the schema-shaped and the format-checked alike', async () => {
    const res = await app.http.inject({
      method: 'PATCH',
      url: '/api/v1/organization',
      headers: bearer(writer),
      payload: { name: '', timezone: 'Nowhere/Atlantis', locale: 'not a locale', currency: 'XYZ' },
    });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().code, 'validation_failed');
    assert.deepEqual(Object.keys(res.json().errors).sort(), ['currency', 'locale', 'name', 'timezone']);
    assert.deepEqual(res.json().errors.timezone, ['The timezone field must be an IANA time zone, such as Europe/Berlin.']);
  });

  test('body values are not coerced: a number or null where a string is required is a 422', async () => {
    for (const payload of [{ name: 123 }, { name: null }, { name: true }, { address: { city: 42 } }]) {
      const res = await app.http.inject({ method: 'PATCH', url: '/api/v1/organization', headers: bearer(writer), payload });
      assert.equal(res.statusCode, 422, JSON.stringify(payload));
      assert.equal(res.json().code, 'validation_failed', JSON.stringify(payload));
      const field = Object.keys(res.json().errors)[0] as string;
      assert.match(res.json().errors[field][0], /must be text/, JSON.stringify(payload));
    }
    const array = await app.http.inject({ method: 'PATCH', url: '/api/v1/organization', headers: bearer(writer), payload: [] });
    assert.equal(array.statusCode, 422);
    assert.equal(array.json().code, 'validation_failed');
    assert.deepEqual(Object.keys(array.json().errors), ['body'], 'a body that is not an object is reported as the body');
  });

  test('malformed JSON is a 400 malformed_request', async () => {
    const res = await app.http.inject({
      method: 'PATCH',
      url: '/api/v1/organization',
      headers: { ...bearer(writer), 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), { message: 'The request body could not be parsed.', code: 'malformed_request' });
  });

  test('a non-JSON body is a 415', async () => {
    const res = await app.http.inject({
      method: 'PATCH',
      url: '/api/v1/organization',
      headers: { ...bearer(writer), 'content-type': 'text/plain' },
      payload: 'name=x',
    });
    assert.equal(res.statusCode, 415);
    assert.equal(res.json().code, 'unsupported_media_type');
  });

  test('read scope cannot write', async () => {
    const res = await app.http.inject({ method: 'PATCH', url: '/api/v1/organization', headers: bearer(reader), payload: { name: 'x' } });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().code, 'insufficient_scope');
  });
});
