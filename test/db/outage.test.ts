import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import { dialect } from '../support/env.ts';
import { eventually } from '../support/eventually.ts';
import { bearer } from '../support/platform.ts';
import { listenerUp, proxiedApi } from '../support/proxied.ts';

interface LogLine {
  level: number;
  msg: string;
  err?: { stack?: string };
  [key: string]: unknown;
}

const listener = (sent: string) => sent.includes('LISTEN academy_changes');

test('with PostgreSQL refusing connections, the API answers 503 unavailable with Retry-After, logs one warning per request, and recovers', {
  skip: dialect === 'sqlite' ? 'an SQLite file does not refuse connections; see timeouts.test.ts for SQLITE_BUSY' : false,
}, async () => {
  const lines: LogLine[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    }),
  );
  const { other, proxy, platform, app } = await proxiedApi({ logger });
  const get = (url: string, token: string) => app.http.inject({ method: 'GET', url, headers: bearer(token) });
  try {
    const { token } = await other.tokens.create({ name: 'monitor', scopes: ['health:read', 'tasks:read', 'organization:read'] });
    assert.equal((await get('/api/v1/tasks', token)).statusCode, 200);
    await listenerUp(platform);
    assert.equal((await get('/api/v1/tasks', token)).statusCode, 200, 'the token is cached now');

    // The pool loses the database while the change listener stays up: the token stays known, so the
    // health endpoint itself runs and must report the failure rather than fail.
    await proxy.cut({ refuse: true, filter: (sent) => !listener(sent) });
    const started = lines.length;
    const health = await get('/api/v1/health', token);
    assert.equal(health.statusCode, 503, health.body); // status only: the health report is the body
    assert.equal(health.json().data.status, 'fail');
    const database = health.json().data.checks.find((c: { name: string }) => c.name === 'database');
    assert.equal(database?.status, 'fail', health.body);
    assert.match(database.output, /refused|terminated|ECONN/i);
    const one = await get('/api/v1/health/database', token);
    assert.equal(one.statusCode, 503, one.body); // status only: the health report is the body
    assert.equal(one.json().data.status, 'fail');

    const requests = 20;
    for (let i = 0; i < requests; i++) {
      const res = await get('/api/v1/tasks', token);
      assert.equal(res.statusCode, 503, res.body);
      assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'message']);
      assert.equal(res.json().code, 'unavailable');
      assert.equal(res.headers['retry-after'], '5');
    }
    const ready = await app.http.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 503);
    assert.equal(ready.json().code, 'unavailable');
    assert.equal(ready.headers['retry-after'], '5');

    const logged = lines.slice(started);
    assert.deepEqual(
      logged.filter((l) => l.level >= 50),
      [],
      'nothing is logged as an error',
    );
    assert.ok(
      logged.every((l) => !l.err?.stack && !JSON.stringify(l).includes('    at ')),
      'no stack traces',
    );
    const warnings = logged.filter((l) => l.level === 40 && l.msg === 'request refused: service unavailable');
    assert.equal(warnings.length, requests, 'one warning per refused request');
    // The outage itself is one more warning, whatever the number of failed checks meanwhile.
    assert.equal(logged.filter((l) => l.level === 40 && l.msg === 'database unavailable').length, 1, 'one warning for the outage');

    // With the listener gone too, no token can be checked: still a 503, never a 401 or a 500.
    await proxy.cut({ refuse: true });
    const fresh = (await other.tokens.create({ name: 'fresh', scopes: ['health:read'] })).token;
    // The cut reaches the listener's socket a moment later; until then the cached token still checks.
    await eventually(async () => (await get('/api/v1/health/database', token)).json().code === 'unavailable', {
      what: 'the listener loss to be noticed',
    });
    for (const res of [await get('/api/v1/health/database', token), await get('/api/v1/health', fresh)]) {
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(res.json().code, 'unavailable');
      assert.equal(res.headers['retry-after'], '5');
    }

    await proxy.resume();
    await eventually(async () => (await get('/api/v1/tasks', fresh)).statusCode === 403, { what: 'the API to recover', timeoutMs: 10_000 });
    await eventually(async () => (await get('/api/v1/health/database', token)).statusCode === 200, {
      what: 'the database check to pass',
      timeoutMs: 10_000,
    });
  } finally {
    await proxy.resume();
    await app.http.close();
    await platform.close();
  }
});

test('an upload whose database connection is reset mid-transaction is a 503 unavailable, not a 400 blaming its body', {
  skip: dialect === 'sqlite' ? 'an SQLite file has no connection to reset' : false,
}, async () => {
  const { other, proxy, platform, app } = await proxiedApi();
  try {
    const { token } = await other.tokens.create({ name: 'uploader', scopes: ['documents:write', 'documents:read'] });
    await listenerUp(platform);
    // With the listener up, the token is cached once checked: the upload's first statement is then
    // its own transaction's.
    assert.equal((await app.http.inject({ method: 'GET', url: '/api/v1/documents', headers: bearer(token) })).statusCode, 200);
    const boundary = 'outage-boundary';
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\ncourse_document\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\n` +
        `notes that arrive whole\r\n--${boundary}--\r\n`,
    );
    // The pool's connections hold their statements back; once the upload's transaction waits on one,
    // they are reset (as a failing network does), so the driver fails with ECONNRESET, the code a
    // client's own reset also has.
    proxy.stall((sent) => !listener(sent));
    const answer = app.http.inject({
      method: 'POST',
      url: '/api/v1/documents',
      headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    await eventually(async () => /\bbegin\b/i.test(proxy.waiting()), {
      what: 'the upload to wait on the database',
      timeoutMs: 5000,
    });
    await proxy.cut({ reset: true, refuse: true, filter: (sent) => !listener(sent) });
    const res = await answer;
    assert.equal(res.statusCode, 503, res.body);
    assert.equal(res.json().code, 'unavailable');
    assert.equal(res.headers['retry-after'], '5');
    await proxy.resume();
    const stored = await other.database.db
      .selectFrom('documents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(stored.n), 0, 'nothing was stored');
  } finally {
    await proxy.resume();
    await app.http.close();
    await platform.close();
  }
});
