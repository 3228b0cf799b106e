import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fixedClock } from '../../src/platform/clock.ts';
import { loadVersions } from '../../src/platform/versions.ts';
import { createTestDatabase } from '../support/database.ts';
import { bearer, createTestApp } from '../support/platform.ts';
import { runAcademy } from '../support/process.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'academy-versions-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function registryFile(content: unknown): string {
  const file = path.join(dir, `versions-${++files}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const DEPRECATED_AT = '2026-01-15T00:00:00.000Z';
const SUNSET_AT = '2030-06-30T00:00:00.000Z';
const deprecated = {
  versions: [
    {
      version: 'v1',
      status: 'deprecated',
      released_at: '2025-01-01',
      deprecated_at: DEPRECATED_AT,
      sunset_at: SUNSET_AT,
      documentation: '/docs',
    },
  ],
};

describe('API version lifecycle', () => {
  test('a deprecated version announces Deprecation, Sunset and their Link relations on every response', async () => {
    const app = await createTestApp({ env: { ACADEMY_VERSIONS_FILE: registryFile(deprecated) } });
    const token = await app.token(['organization:read']);
    const ok = await app.http.inject({ method: 'GET', url: '/api/v1/organization', headers: bearer(token) });
    const denied = await app.http.inject({ method: 'GET', url: '/api/v1/organization' });
    assert.equal(ok.statusCode, 200);
    assert.equal(denied.statusCode, 401);
    assert.equal(denied.json().code, 'unauthenticated');
    for (const res of [ok, denied]) {
      assert.equal(res.headers.deprecation, `@${Date.parse(DEPRECATED_AT) / 1000}`);
      assert.equal(res.headers.sunset, 'Sun, 30 Jun 2030 00:00:00 GMT');
      const link = res.headers.link as string;
      // Relative to the request's URL: no public URL is configured, and the Host header is not trusted.
      assert.match(link, /^<\/docs>; rel="deprecation"; type="text\/html", <\/docs>; rel="sunset"; type="text\/html"$/);
    }
    // A paginated list keeps the lifecycle relations next to its own first/last/next ones.
    const list = await app.http.inject({ method: 'GET', url: '/api/v1/tasks', headers: bearer(await app.token(['tasks:read'])) });
    assert.equal(list.statusCode, 200);
    assert.match(list.headers.link as string, /rel="deprecation"/);
    assert.match(list.headers.link as string, /rel="sunset"/);
    assert.match(list.headers.link as string, /rel="first"/);
    // So does a kept page (the course list), when its text is first kept and when it is sent again.
    const courses = bearer(await app.token(['courses:read']));
    for (const time of ['first', 'again']) {
      const page = await app.http.inject({ method: 'GET', url: '/api/v1/courses?per_page=1', headers: courses });
      assert.equal(page.statusCode, 200);
      assert.match(
        page.headers.link as string,
        /^<\/docs>; rel="deprecation"; type="text\/html", <\/docs>; rel="sunset"; type="text\/html", <\/api\/v1\/courses\?per_page=1&page=1>; rel="first", /,
        time,
      );
    }
    const outside = await app.http.inject({ method: 'GET', url: '/livez' });
    assert.equal(outside.headers.deprecation, undefined, 'only responses of the version carry its lifecycle');
  });

  test('with ACADEMY_PUBLIC_URL the lifecycle links are absolute under it, whatever the Host header says', async () => {
    const app = await createTestApp({
      env: { ACADEMY_VERSIONS_FILE: registryFile(deprecated), ACADEMY_PUBLIC_URL: 'https://academy.example.org' },
    });
    for (const host of ['evil.example', 'x:99999', 'a b']) {
      const res = await app.http.inject({ method: 'GET', url: '/api/v1/organization', headers: { host } });
      assert.equal(res.statusCode, 401, host);
      assert.equal(res.json().code, 'unauthenticated', host);
      assert.equal(
        res.headers.link,
        '<https://academy.example.org/docs>; rel="deprecation"; type="text/html", <https://academy.example.org/docs>; rel="sunset"; type="text/html"',
      );
    }
  });

  test('an active version carries no lifecycle headers', async () => {
    const app = await createTestApp();
    const res = await app.http.inject({ method: 'GET', url: '/api/v1/organization', headers: bearer(await app.token(['*'])) });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers.deprecation, undefined);
    assert.equal(res.headers.sunset, undefined);
  });

  test('GET /api lists the registry, without a token', async () => {
    const app = await createTestApp({ env: { ACADEMY_VERSIONS_FILE: registryFile(deprecated) } });
    const res = await app.http.inject({ method: 'GET', url: '/api' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { data: deprecated.versions });
  });

  test('past the sunset date every call of the version is a 410 version_sunset', async () => {
    const past = { versions: [{ ...deprecated.versions[0], sunset_at: '2026-02-01T00:00:00.000Z' }] };
    const viaFile = await createTestApp({ env: { ACADEMY_VERSIONS_FILE: registryFile(past) } });
    // The same registry as above, whose sunset date is in the future, seen by a clock after it.
    const viaClock = await createTestApp({
      env: { ACADEMY_VERSIONS_FILE: registryFile(deprecated) },
      clock: fixedClock('2030-06-30T00:00:01.000Z'),
    });
    for (const app of [viaFile, viaClock]) {
      const token = await app.token(['*']);
      const calls = [
        await app.http.inject({ method: 'GET', url: '/api/v1/organization', headers: bearer(token) }),
        await app.http.inject({ method: 'PATCH', url: '/api/v1/organization', headers: bearer(token), payload: { name: 'x' } }),
        await app.http.inject({ method: 'GET', url: '/api/v1/organization' }),
        await app.http.inject({ method: 'GET', url: '/api/v1/anything/at/all' }),
      ];
      for (const res of calls) {
        assert.equal(res.statusCode, 410);
        assert.equal(res.json().code, 'version_sunset');
        assert.match(res.json().message, /v1/);
        assert.ok(res.headers.sunset);
      }
      assert.equal((await app.http.inject({ method: 'GET', url: '/api' })).statusCode, 200, 'the registry stays readable');
    }
    const unchanged = await viaClock.http.inject({ method: 'GET', url: '/api/v1/organization' });
    assert.equal(unchanged.statusCode, 410);
    assert.equal(unchanged.json().code, 'version_sunset');
  });

  test('an invalid registry is refused with a message naming ACADEMY_VERSIONS_FILE', () => {
    const invalid = [
      registryFile('{ not json'),
      registryFile({ versions: [] }),
      registryFile({ versions: [{ ...deprecated.versions[0], status: 'retired' }] }),
      registryFile({ versions: [{ ...deprecated.versions[0], version: 'one' }] }),
      path.join(dir, 'missing.json'),
    ];
    for (const file of invalid) {
      assert.throws(() => loadVersions(file), /ACADEMY_VERSIONS_FILE/, file);
    }
    assert.deepEqual(loadVersions(registryFile(deprecated)), deprecated.versions);
  });

  test('the server does not start with an invalid registry', async () => {
    const database = await createTestDatabase();
    try {
      const result = await runAcademy(['serve', '--no-worker'], {
        DATABASE_URL: database.url,
        ACADEMY_DATA_DIR: database.dataDir,
        PORT: '0',
        ACADEMY_VERSIONS_FILE: registryFile({ versions: 'v1' }),
      });
      assert.equal(result.code, 78, 'the exit code of invalid configuration');
      assert.match(result.stderr, /ACADEMY_VERSIONS_FILE/);
      assert.doesNotMatch(result.stdout, /listening/);
    } finally {
      await database.drop();
    }
  });
});
