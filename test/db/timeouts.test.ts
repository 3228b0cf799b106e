import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { describe, test } from 'node:test';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../../src/assembly/app.ts';
import { assemble } from '../../src/assembly/modules.ts';
import { loadConfig } from '../../src/config.ts';
import { sqliteFile } from '../../src/db/database.ts';
import { dialect, postgresAdminUrl, secretKeyEnv } from '../support/env.ts';
import { eventually } from '../support/eventually.ts';
import { bearer, createTestApp, createTestPlatform } from '../support/platform.ts';
import { createTcpProxy } from '../support/tcp-proxy.ts';

/** Runs `work` and measures it; a `work` still running after `limitMs` fails the test instead of hanging it. */
async function within<T>(limitMs: number, what: string, work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${limitMs} ms`)), limitMs);
  });
  try {
    const value = await Promise.race([work, late]);
    return { value, ms: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

describe('database timeouts', () => {
  test('with PostgreSQL stalled, /readyz and API calls answer 503 within their timeouts, and recover by themselves', {
    skip: dialect === 'sqlite' ? 'an SQLite file cannot stall like a server' : false,
  }, async (t) => {
    const direct = await createTestPlatform();
    const admin = new URL(postgresAdminUrl);
    const proxy = await createTcpProxy({ host: admin.hostname, port: Number(admin.port) || 5432 });
    const acquireMs = 1000;
    const statementMs = 2000;
    const assembly = assemble(
      loadConfig({
        DATABASE_URL: proxy.url(direct.database.url),
        ACADEMY_DATA_DIR: direct.config.dataDir,
        ACADEMY_DB_ACQUIRE_TIMEOUT_MS: String(acquireMs),
        ACADEMY_DB_STATEMENT_TIMEOUT_MS: String(statementMs),
        ...secretKeyEnv,
      }),
      { logger: pino({ level: 'silent' }) },
    );
    const { platform } = assembly;
    const app = await buildApp(assembly);
    try {
      const known = (await direct.tokens.create({ name: 'known', scopes: ['tasks:read'] })).token;
      const fresh = (await direct.tokens.create({ name: 'fresh', scopes: ['tasks:read'] })).token;
      const get = (url: string, token?: string) => app.http.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
      assert.equal((await get('/readyz')).statusCode, 200);
      assert.equal((await get('/api/v1/tasks', known)).statusCode, 200);

      proxy.stall();
      const limit = 2 * statementMs + 2000;
      const [ready, listed, unknown] = await Promise.all([
        within(limit, '/readyz', get('/readyz')),
        within(limit, 'GET /api/v1/tasks', get('/api/v1/tasks', known)),
        within(limit, 'GET /api/v1/tasks with a token not yet cached', get('/api/v1/tasks', fresh)),
      ]);
      t.diagnostic(`stalled: /readyz ${ready.ms} ms, GET /api/v1/tasks ${listed.ms} ms (token not cached: ${unknown.ms} ms)`);
      assert.equal(ready.value.statusCode, 503, ready.value.body);
      assert.equal(ready.value.json().code, 'unavailable', ready.value.body);
      assert.equal(ready.value.headers['retry-after'], '5');
      assert.ok(ready.ms < 2 * acquireMs, `/readyz answered in ${ready.ms} ms`);
      for (const { value: res, ms } of [listed, unknown]) {
        assert.equal(res.statusCode, 503, res.body);
        assert.equal(res.json().code, 'unavailable');
        assert.equal(res.headers['retry-after'], '5');
        assert.ok(ms < 2 * statementMs, `answered in ${ms} ms`);
      }

      await proxy.resume();
      await eventually(async () => (await get('/readyz')).statusCode === 200 && (await get('/api/v1/tasks', fresh)).statusCode === 200, {
        what: 'readiness and the API to recover once the database answers again',
        timeoutMs: 10_000,
      });
    } finally {
      await proxy.resume();
      await app.http.close();
      await platform.close();
    }
  });

  test('a write that waits for a lock longer than ACADEMY_DB_LOCK_TIMEOUT_MS is a 503; /readyz stays quick meanwhile', async (t) => {
    const lockMs = 300;
    const app = await createTestApp({ env: { ACADEMY_DB_LOCK_TIMEOUT_MS: String(lockMs) } });
    const token = await app.token(['organization:write']);
    const patch = () =>
      app.http.inject({ method: 'PATCH', url: '/api/v1/organization', headers: bearer(token), payload: { name: 'Locked Out Academy' } });

    // Another session holds the organization table, as an operator's long transaction would.
    let release: () => Promise<void>;
    if (dialect === 'sqlite') {
      const other = new DatabaseSync(sqliteFile(app.platform.database.url));
      other.exec('begin immediate');
      release = async () => {
        other.exec('rollback');
        other.close();
      };
    } else {
      const other = new pg.Client({ connectionString: app.platform.database.url });
      await other.connect();
      await other.query('begin');
      await other.query('lock table organization in exclusive mode');
      release = async () => {
        await other.query('rollback');
        await other.end();
      };
    }
    try {
      // More writers than the pool has connections (PostgreSQL); SQLite waits on one thread, so two are enough.
      const writers = dialect === 'postgres' ? 12 : 2;
      // A few lock timeouts at most: the last writers first wait for a pooled connection. Still well
      // under the default lock timeout (5 s); under CI's load a SQLite writer took 1,805 ms of 6 × 300.
      const bound = 10 * lockMs;
      const [ready, ...writes] = await Promise.all([
        within(10_000, '/readyz', app.http.inject({ method: 'GET', url: '/readyz' })),
        ...Array.from({ length: writers }, () => within(10_000, 'PATCH /api/v1/organization', patch())),
      ]);
      t.diagnostic(`locked: ${writers} writes answered within ${Math.max(...writes.map((w) => w.ms))} ms, /readyz in ${ready.ms} ms`);
      for (const { value: res, ms } of writes) {
        assert.equal(res.statusCode, 503, res.body);
        assert.equal(res.json().code, 'unavailable');
        assert.equal(res.headers['retry-after'], '5');
        assert.ok(ms < bound, `answered in ${ms} ms`);
      }
      assert.equal(ready.value.statusCode, 200);
      assert.ok(ready.ms < bound, `/readyz answered in ${ready.ms} ms`);
    } finally {
      await release();
    }
    assert.equal((await patch()).statusCode, 200, 'the write goes through once the lock is released');
  });
});
