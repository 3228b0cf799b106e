import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import {
  AcademyApiError,
  type AcademyClientOptions,
  createAcademyClient,
  linkTarget,
  nextLink,
  parseRetryAfter,
  type RetryEvent,
  unwrap,
} from '../../clients/typescript/index.ts';
import { assemble } from '../../src/assembly/modules.ts';
import { loadConfig } from '../../src/config.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { secretKeyEnv } from '../support/env.ts';
import { fixtures } from '../support/fixtures.ts';
import { type AcademyServer, startServer } from '../support/process.ts';
import { clientDir, run, withBuiltClient } from './build.ts';

/** The rate limit's window (src/platform/rate-limit.ts): a 429's Retry-After is what is left of it. */
const WINDOW_MS = 60_000;

/** A loopback HTTP server for the tests' stand-ins of a network; closed when the file's tests end. */
async function listen(handler: http.RequestListener): Promise<{ url: string; server: http.Server }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Sends a request on to `upstream` as it came, and calls `answered` with the answer, read in full. */
function forward(
  request: http.IncomingMessage,
  upstream: string,
  answered: (status: number, headers: http.IncomingHttpHeaders, body: Buffer) => void,
) {
  const target = new URL(upstream);
  const out = http.request(
    { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers },
    (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => answered(answer.statusCode ?? 502, answer.headers, Buffer.concat(chunks)));
    },
  );
  request.pipe(out);
}

describe('the TypeScript client against a live server', () => {
  let database: TestDatabase;
  let server: AcademyServer;
  /** The same database served with a limit of 1 request a minute per token. */
  let limited: AcademyServer;
  let token: string;
  let limitedToken: string;
  /** When the limited server's window for `limitedToken` began (its first request). */
  let windowStart: number;
  let studentIds: number[];

  const client = (options: Partial<AcademyClientOptions> = {}) => createAcademyClient({ baseUrl: server.url, token, ...options });

  before(async () => {
    database = await createTestDatabase({ migrated: true });
    const env = { DATABASE_URL: database.url, ACADEMY_DATA_DIR: database.dataDir, ...secretKeyEnv };
    const { platform } = assemble(loadConfig({ ...env, LOG_LEVEL: 'silent' }), { logger: pino({ level: 'silent' }) });
    try {
      await migrate(platform.database);
      const make = fixtures(platform);
      studentIds = [];
      for (let n = 1; n <= 64; n += 1) studentIds.push((await make.student({ name: `Roster ${String(n).padStart(2, '0')}` })).id);
      token = (await make.token(['*'])).secret;
      limitedToken = (await make.token(['students:read'])).secret;
    } finally {
      await platform.close();
    }
    [server, limited] = await Promise.all([
      startServer(['--no-worker'], env),
      startServer(['--no-worker'], { ...env, ACADEMY_RATE_LIMIT_PER_MINUTE: '1' }),
    ]);
    // Uses the limited token's one request now; the 429 test (the last) comes near the window's end,
    // so that its Retry-After is a few seconds and the tests between fill the wait.
    windowStart = Date.now();
    const opened = await fetch(`${limited.url}/api/v1/students?per_page=1`, { headers: { authorization: `Bearer ${limitedToken}` } });
    assert.equal(opened.status, 200, await opened.text());
    await opened.arrayBuffer().catch(() => undefined);
  });

  after(async () => {
    for (const running of [server, limited]) running?.child.kill('SIGKILL');
    await Promise.all([server?.exited, limited?.exited]);
    await database?.drop();
  });

  test('paginate yields every student of a 64-student list once, in order, following each rel="next"', async () => {
    const sent: string[] = [];
    const academy = client({
      fetch: (request) => {
        sent.push(request.url);
        return fetch(request);
      },
    });

    const ids: number[] = [];
    for await (const student of academy.paginate('/api/v1/students', { params: { query: { search: 'roster', per_page: 5 } } })) {
      ids.push(student.id);
    }
    assert.deepEqual(ids, studentIds, 'all 64, each once, in id order');
    assert.equal(sent.length, 13, '13 pages of 5');
    for (const [index, url] of sent.entries()) {
      const query = new URL(url).searchParams;
      assert.equal(query.get('search'), 'roster', `page ${index + 1} keeps the filter: ${url}`);
      assert.equal(query.get('per_page'), '5', url);
      assert.equal(query.get('page'), index === 0 ? null : String(index + 1), url);
    }

    const pages: { current: number; count: number; link: string | null }[] = [];
    for await (const { data, response } of academy.pages('/api/v1/students', { params: { query: { per_page: 30 } } })) {
      pages.push({ current: data.meta.current_page, count: data.data.length, link: nextLink(response.headers.get('link')) });
    }
    assert.deepEqual(
      pages.map(({ current, count }) => [current, count]),
      [
        [1, 30],
        [2, 30],
        [3, 4],
      ],
    );
    assert.equal(pages.at(-1)?.link, null, 'the last page has no rel="next"');
  });

  test('an error answer: { data, error } by default, AcademyApiError from unwrap and paginate, never retried', async () => {
    let sent = 0;
    const academy = client({
      fetch: (request) => {
        sent += 1;
        return fetch(request);
      },
    });
    const params = { path: { student: 2147483647 } };

    const { data, error, response } = await academy.GET('/api/v1/students/{student}', { params });
    assert.equal(data, undefined);
    assert.equal(response.status, 404);
    assert.equal(error?.code, 'not_found');

    const thrown = await unwrap(academy.GET('/api/v1/students/{student}', { params })).then(
      () => assert.fail('a 404 throws'),
      (caught: unknown) => caught,
    );
    assert.ok(thrown instanceof AcademyApiError, String(thrown));
    assert.equal(thrown.status, 404);
    assert.equal(thrown.code, 'not_found');
    assert.equal(thrown.message, 'The requested resource was not found.');
    assert.deepEqual(thrown.errors, {});
    assert.equal(thrown.helpUrl, `${server.url}/docs/errors#not_found`);
    assert.match(thrown.requestId ?? '', /\S/);
    assert.equal(thrown.requestId, thrown.response.headers.get('x-request-id'));
    assert.equal(sent, 2, 'a 404 is not retried');
    const guide = await fetch(thrown.helpUrl as string);
    assert.equal(guide.status, 200);
    assert.match(await guide.text(), /id="not_found"/, 'the help link leads to the code');

    const invalid = await (async () => {
      for await (const _ of academy.paginate('/api/v1/students', { params: { query: { per_page: 0 } } })) assert.fail('no page');
    })().then(
      () => assert.fail('a 422 throws'),
      (caught: unknown) => caught,
    );
    assert.ok(invalid instanceof AcademyApiError, String(invalid));
    assert.equal(invalid.code, 'validation_failed');
    assert.deepEqual(invalid.errors, { per_page: ['The per_page field must be at least 1.'] });
    assert.equal(invalid.helpUrl, `${server.url}/docs/errors#validation_failed`);
    assert.equal(sent, 3, 'a 422 is not retried');
  });

  test('a POST answered 503 is sent again after Retry-After with the same Idempotency-Key, and carried out once', async () => {
    // The client's behaviour is what is tested: this proxy stands for a server that fails the first
    // attempt (the real one answers 503 only while its database is out).
    const keys: (string | undefined)[] = [];
    const { url } = await listen((request, response) => {
      if (request.method === 'POST') keys.push(request.headers['idempotency-key'] as string | undefined);
      if (keys.length === 1 && request.method === 'POST') {
        request.resume();
        response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
        response.end(JSON.stringify({ code: 'unavailable', message: 'The database is temporarily unavailable; retry later.' }));
        return;
      }
      forward(request, server.url, (status, headers, body) => response.writeHead(status, headers).end(body));
    });
    const retries: RetryEvent[] = [];
    const academy = createAcademyClient({ baseUrl: url, token, retry: { onRetry: (event) => retries.push(event) } });

    const started = Date.now();
    const report = await unwrap(academy.POST('/api/v1/reports', { body: { type: 'enrolments', format: 'csv' } }));
    assert.ok(Date.now() - started >= 1000, 'waited for Retry-After: 1');
    assert.equal(retries.length, 1);
    // status only: the test's proxy answered it, with no body of the API's
    assert.equal(retries[0]?.response?.status, 503);
    assert.equal(retries[0]?.delayMs, 1000);
    assert.equal(keys.length, 2);
    assert.match(keys[0] ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'a random UUID');
    assert.equal(keys[1], keys[0], 'the retry carries the same key');

    const listed = await unwrap(client().GET('/api/v1/reports'));
    assert.deepEqual(
      listed.data.map((item) => item.id),
      [report.data.id],
      'one report',
    );
  });

  test('a POST whose answer was lost is sent again with the same key: the server replays it, not does it twice', async () => {
    // A stand-in for a network that drops the connection after the server has answered.
    let posts = 0;
    const { url } = await listen((request, response) => {
      const first = request.method === 'POST' && ++posts === 1;
      forward(request, server.url, (status, headers, body) => {
        if (first) request.socket.destroy();
        else response.writeHead(status, headers).end(body);
      });
    });
    const retries: RetryEvent[] = [];
    const academy = createAcademyClient({ baseUrl: url, token, retry: { baseDelayMs: 10, onRetry: (event) => retries.push(event) } });
    const before = (await unwrap(client().GET('/api/v1/reports'))).meta.total;

    const { data, response } = await academy.POST('/api/v1/reports', { body: { type: 'completions', format: 'csv' } });
    assert.equal(response.status, 202);
    assert.equal(response.headers.get('idempotent-replayed'), 'true', 'the second attempt is answered from the first');
    assert.equal(posts, 2);
    assert.equal(retries.length, 1);
    assert.ok(retries[0]?.error, 'retried after a network error');
    assert.equal((await unwrap(client().GET('/api/v1/reports'))).meta.total, before + 1, 'carried out once');
    assert.ok(data?.data.id);

    // Without a key a POST is not repeated after a network error: it may have been carried out.
    posts = 0;
    const keyless = createAcademyClient({ baseUrl: url, token, idempotencyKey: false, retry: { baseDelayMs: 10 } });
    await assert.rejects(keyless.POST('/api/v1/reports', { body: { type: 'completions', format: 'csv' } }), TypeError);
    assert.equal(posts, 1);
  });

  test('a GET is retried after network errors up to maxAttempts', async () => {
    const { url, server: closed } = await listen(() => undefined);
    await new Promise((resolve) => closed.close(resolve));
    const retries: RetryEvent[] = [];
    const academy = createAcademyClient({
      baseUrl: url,
      token,
      retry: { maxAttempts: 3, baseDelayMs: 10, onRetry: (event) => retries.push(event) },
    });
    await assert.rejects(academy.GET('/api/v1/students'), TypeError);
    assert.deepEqual(
      retries.map((event) => event.attempt),
      [1, 2],
    );
  });

  test('npm pack --dry-run, after the build, lists the JavaScript and type declarations', async () => {
    const packed = await withBuiltClient(async () => {
      const listed = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: clientDir });
      assert.equal(listed.code, 0, listed.stderr);
      // The built package, as a user of it imports it (its `exports`), while the build is there.
      const manifest = JSON.parse(readFileSync(path.join(clientDir, 'package.json'), 'utf8'));
      const built = await import(path.join(clientDir, manifest.exports['.'].default));
      assert.equal(typeof built.createAcademyClient, 'function');
      assert.equal(typeof built.unwrap, 'function');
      assert.equal(built.AcademyApiError.name, 'AcademyApiError');
      return JSON.parse(listed.stdout) as { files: { path: string }[] }[];
    });
    assert.deepEqual(packed[0]?.files.map((file) => file.path).sort(), [
      'README.md',
      'dist/index.d.ts',
      'dist/index.js',
      'dist/schema.d.ts',
      'dist/schema.js',
      'package.json',
    ]);
  });

  test('a 429 of the real rate limit is retried after its Retry-After', async () => {
    const retries: RetryEvent[] = [];
    const academy = createAcademyClient({ baseUrl: limited.url, token: limitedToken, retry: { onRetry: (event) => retries.push(event) } });
    const query = { params: { query: { per_page: 1 } } };

    // A Retry-After beyond maxDelayMs is not waited for: the 429 is the answer.
    const impatient = createAcademyClient({ baseUrl: limited.url, token: limitedToken, retry: { maxDelayMs: 500 } });
    const refused = await impatient.GET('/api/v1/students', query);
    assert.equal(refused.response.status, 429);
    assert.equal(refused.error?.code, 'rate_limited');
    assert.ok(Number(refused.response.headers.get('retry-after')) > 1);

    const wait = windowStart + WINDOW_MS - 4000 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const started = Date.now();
    const { data, response } = await academy.GET('/api/v1/students', query);
    assert.equal(response.status, 200);
    assert.equal(data?.data.length, 1);
    assert.equal(retries.length, 1, 'one retry');
    const [retry] = retries;
    // status only: a retry event's response, whose body the client does not read before it waits
    assert.equal(retry?.response?.status, 429);
    const retryAfter = Number(retry?.response?.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 5, `Retry-After ${retryAfter}`);
    assert.equal(retry?.delayMs, retryAfter * 1000);
    assert.ok(Date.now() - started >= retryAfter * 1000, 'waited as long as Retry-After said');
  });
});

describe('the client helpers', () => {
  test('Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-05-04T10:00:00Z');
    assert.equal(parseRetryAfter('3', now), 3000);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
    assert.equal(parseRetryAfter('Mon, 04 May 2026 10:00:05 GMT', now), 5000);
    assert.equal(parseRetryAfter('Mon, 04 May 2026 09:59:00 GMT', now), 0, 'a date past is now');
    assert.equal(parseRetryAfter('soon', now), null);
    assert.equal(parseRetryAfter('-1', now), null);
    assert.equal(parseRetryAfter(null, now), null);
  });

  test('links by relation, in any order and with quoted parameters', () => {
    const link =
      '</api/v1/students?page=1&per_page=5>; rel="first", <https://a.example/p?x=1,2>; title="a, b; c"; rel="next last", </docs/errors#not_found>; rel=help';
    assert.equal(nextLink(link), 'https://a.example/p?x=1,2');
    assert.equal(linkTarget(link, 'last'), 'https://a.example/p?x=1,2');
    assert.equal(linkTarget(link, 'HELP'), '/docs/errors#not_found');
    assert.equal(linkTarget(link, 'prev'), null);
    assert.equal(nextLink(null), null);
  });
});
