import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { clientDir, type Finished, run, withBuiltClient } from '../client/build.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { assertFetchError } from '../support/errors.ts';
import { type AcademyServer, runAcademy, startServer } from '../support/process.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const document = JSON.parse(readFileSync(path.join(root, 'openapi/openapi.json'), 'utf8'));

/**
 * Runs the client's example program, built to JavaScript (`npm run build` in clients/typescript), to
 * its end against `url` with `token`: the command the README gives, which needs no type stripping.
 */
function runExample(url: string, token: string): Promise<Finished> {
  return withBuiltClient(() =>
    run(process.execPath, [path.join(clientDir, 'dist/example.js')], {
      env: { ACADEMY_URL: url, ACADEMY_TOKEN: token },
      timeoutMs: 30_000,
    }),
  );
}

/** The header names an operation's response documents (through `components.responses`). */
function documentedHeaders(operationId: string, status: string): string[] {
  for (const item of Object.values(document.paths as Record<string, Record<string, any>>)) {
    for (const operation of Object.values(item)) {
      if (operation.operationId !== operationId) continue;
      let response = operation.responses[status];
      if (!response) throw new Error(`${operationId} documents no ${status}`);
      if (response.$ref) response = document.components.responses[response.$ref.split('/').pop()];
      return Object.keys(response.headers ?? {});
    }
  }
  throw new Error(`no operation ${operationId}`);
}

describe('the TypeScript client against a live server with the demo academy', () => {
  let database: TestDatabase;
  let server: AcademyServer;
  let token: string;

  before(async () => {
    database = await createTestDatabase();
    const env = { DATABASE_URL: database.url, ACADEMY_DATA_DIR: database.dataDir };
    const seeded = await runAcademy(['--json', 'seed', '--demo'], env, 60_000);
    assert.equal(seeded.code, 0, seeded.stderr);
    token = JSON.parse(seeded.stdout).token;
    server = await startServer(['--no-worker'], env);
  });

  after(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await database?.drop();
  });

  const get = (pathAndQuery: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${pathAndQuery}`, { headers: { authorization: `Bearer ${token}`, ...headers } });

  test('the built example program lists courses, reads one, goes through every student and handles typed errors', async () => {
    const published = (await (await get('/api/v1/courses?active=true&sort=price&per_page=100')).json()) as {
      data: { code: string; slug: string; title: string }[];
      meta: { total: number };
    };
    const students = (await (await get('/api/v1/students?per_page=1')).json()) as { meta: { total: number } };
    assert.ok(published.meta.total > 0, 'the demo academy has published courses');
    assert.ok(students.meta.total > 25, 'the demo academy has more than one page of students');

    const example = await runExample(server.url, token);
    assert.equal(example.code, 0, `the example failed:\n${example.stdout}\n${example.stderr}`);
    const lines = example.stdout.trim().split('\n');
    assert.equal(lines[0], `courses: ${published.meta.total} published`);
    assert.deepEqual(
      lines.slice(1, 1 + published.data.length).map((line) => line.trim().split(' ')[0]),
      published.data.map((course) => course.code),
      'one line per published course, cheapest first',
    );
    const cheapest = published.data[0] as { slug: string; title: string };
    assert.ok(
      lines.some((line) => line.startsWith(`course: ${cheapest.slug} "${cheapest.title}" is published since `)),
      example.stdout,
    );
    const pages = Math.ceil(students.meta.total / 25);
    assert.ok(lines.includes(`students: ${students.meta.total} of ${students.meta.total} in ${pages} pages`), example.stdout);
    assert.ok(lines.includes('error: 404 not_found: The requested resource was not found.'), example.stdout);
    assert.ok(
      lines.includes(
        `error: 422 validation_failed: per_page: The per_page field must be at least 1. (see ${server.url}/docs/errors#validation_failed)`,
      ),
      example.stdout,
    );
    assert.equal(example.stderr, '', 'no retry was needed');
  });

  test('the response headers the document names are the ones the server sends', async () => {
    const present = (response: Response, names: string[]) => names.filter((name) => !response.headers.has(name));

    const list = await get('/api/v1/courses?per_page=2');
    assert.equal(list.status, 200);
    assert.deepEqual(present(list, documentedHeaders('listCourses', '200')), [], 'listCourses 200');

    const slug = ((await list.json()) as { data: { slug: string }[] }).data[0]?.slug as string;
    const one = await get(`/api/v1/courses/${slug}`);
    assert.equal(one.status, 200);
    assert.deepEqual(present(one, documentedHeaders('getCourse', '200')), [], 'getCourse 200');

    const unchanged = await get(`/api/v1/courses/${slug}`, { 'if-none-match': one.headers.get('etag') as string });
    assert.equal(unchanged.status, 304);
    assert.deepEqual(present(unchanged, documentedHeaders('getCourse', '304')), [], 'getCourse 304');

    const missing = await get('/api/v1/students/2147483647');
    await assertFetchError(missing, 404, 'not_found');
    assert.deepEqual(present(missing, documentedHeaders('getStudent', '404')), [], 'getStudent 404');

    const anonymous = await fetch(`${server.url}/api/v1/courses`);
    await assertFetchError(anonymous, 401, 'unauthenticated');
    assert.deepEqual(present(anonymous, documentedHeaders('listCourses', '401')), [], 'listCourses 401');

    const versions = await fetch(`${server.url}/api`);
    assert.equal(versions.status, 200);
    assert.deepEqual(present(versions, documentedHeaders('listApiVersions', '200')), [], 'listApiVersions 200');
    const versionsUnchanged = await fetch(`${server.url}/api`, { headers: { 'if-none-match': versions.headers.get('etag') as string } });
    assert.equal(versionsUnchanged.status, 304);
    assert.deepEqual(present(versionsUnchanged, documentedHeaders('listApiVersions', '304')), [], 'listApiVersions 304');
    // Public and unmetered: the document promises no rate-limit headers, and none are sent.
    assert.equal(versions.headers.has('ratelimit'), false);
    assert.ok(!documentedHeaders('listApiVersions', '200').includes('RateLimit'));

    const created = await fetch(`${server.url}/api/v1/reports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'client-test-1' },
      body: JSON.stringify({ type: 'enrolments', format: 'csv' }),
    });
    assert.equal(created.status, 202);
    const always = documentedHeaders('requestReport', '202').filter((name) => name !== 'Idempotent-Replayed');
    assert.deepEqual(present(created, always), [], 'requestReport 202');
    const replayed = await fetch(`${server.url}/api/v1/reports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'client-test-1' },
      body: JSON.stringify({ type: 'enrolments', format: 'csv' }),
    });
    assert.equal(replayed.headers.get('idempotent-replayed'), 'true');
  });
});
