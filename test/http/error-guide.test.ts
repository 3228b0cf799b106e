import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { ERROR_CODES } from '../../src/http/error-codes.ts';
import { ERROR_GUIDE } from '../../src/http/error-guide.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

/** Every error code the server's code raises: `new AppError(status, 'code'` and `super(status, 'code'`. */
function raisedCodes(): Map<string, number> {
  const found = new Map<string, number>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (/\.tsx?$/.test(name)) {
        for (const match of readFileSync(file, 'utf8').matchAll(/(?:super|new AppError)\((\d{3}), '([a-z_]+)'/g)) {
          found.set(match[2] as string, Number(match[1]));
        }
      }
    }
  };
  walk(path.resolve('src'));
  return found;
}

describe('error codes: one page explains each, and every error answer links to its entry', () => {
  let app: TestApp;
  before(async () => {
    app = await createTestApp();
  });

  test('every code of the catalogue and every code the code raises has an entry, with its status', () => {
    for (const [code, { status }] of Object.entries(ERROR_CODES)) assert.equal(ERROR_GUIDE[code]?.status, status, code);
    const raised = raisedCodes();
    assert.ok(raised.size >= 15, `found ${raised.size} raised codes`);
    for (const [code, status] of raised) assert.equal(ERROR_GUIDE[code]?.status, status, `${code} (${status}) is explained`);
  });

  test('the page lists every code as an anchor; a 404 and a 422 link to theirs', async () => {
    const page = await app.http.inject({ method: 'GET', url: '/docs/errors' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    for (const code of Object.keys(ERROR_GUIDE)) assert.ok(page.body.includes(`<tr id="${code}">`), code);

    const missing = await app.http.inject({
      method: 'GET',
      url: '/api/v1/courses/999999',
      headers: bearer(await app.token(['courses:read'])),
    });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().code, 'not_found');
    assert.equal(missing.headers.link, '</docs/errors#not_found>; rel="help"');
    const invalid = await app.http.inject({
      method: 'GET',
      url: '/api/v1/courses?per_page=0',
      headers: bearer(await app.token(['courses:read'])),
    });
    assert.equal(invalid.statusCode, 422);
    assert.equal(invalid.json().code, 'validation_failed');
    assert.equal(invalid.headers.link, '</docs/errors#validation_failed>; rel="help"');
    const anonymous = await app.http.inject({ method: 'GET', url: '/api/v1/courses' });
    assert.equal(anonymous.headers.link, '</docs/errors#unauthenticated>; rel="help"');
  });
});
