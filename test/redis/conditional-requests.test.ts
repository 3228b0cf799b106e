import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { redisSkipReason, redisUrl } from '../support/env.ts';
import { type AcademyServer, runAcademy, startServer } from '../support/process.ts';

const skip = await redisSkipReason('conditional requests with shared rate limits are');

/**
 * A conditional GET answered 304 by a process that counts its quota in Redis, on a representation not
 * yet kept in memory: the read is asynchronous, so the route's promise resolved while the answer was
 * still on its way, and the process exited with ERR_HTTP_HEADERS_SENT.
 */
describe('conditional GETs against a process with Redis', { skip }, () => {
  const prefix = `academy-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  let database: TestDatabase;
  let redis: Redis;
  let env: Record<string, string>;
  let server: AcademyServer;
  let token: string;

  before(async () => {
    database = await createTestDatabase();
    redis = new Redis(redisUrl);
    env = { DATABASE_URL: database.url, ACADEMY_DATA_DIR: database.dataDir, REDIS_URL: redisUrl, ACADEMY_REDIS_PREFIX: prefix };
    const created = await runAcademy(['--json', 'tokens', 'create', '--name', 'conditional', '--scopes', '*'], env);
    assert.equal(created.code, 0, created.stderr);
    token = JSON.parse(created.stdout).token;
  });

  after(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await database?.drop();
  });

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
    await res.arrayBuffer();
    return res;
  };

  test('If-None-Match on fresh representations: 304s, and the process serves on', async () => {
    server = await startServer(['--no-worker'], env);
    // The organization's real ETag, read from one process...
    const first = await get('/api/v1/organization');
    assert.equal(first.status, 200);
    const etag = first.headers.get('etag');
    assert.ok(etag);
    server.child.kill('SIGTERM');
    await server.exited;

    // ...sent to a freshly started one, which has kept nothing yet.
    server = await startServer(['--no-worker'], env);
    const conditional = [
      ['/api/v1/organization', etag],
      ['/api/v1/courses?sort=title&per_page=37&page=2', '*'],
      ['/api/v1/courses?per_page=3', '*'],
      ['/api/v1/students?per_page=5', '*'],
      ['/api/v1/enrolments?page=2', '*'],
      ['/api/v1/users', '*'],
    ] as const;
    for (const [path, tag] of conditional) {
      const res = await get(path, { 'if-none-match': tag });
      assert.equal(res.status, 304, `${path} with If-None-Match: ${tag}`);
    }
    // Many at once, each URL new to the process.
    const many = await Promise.all(
      Array.from({ length: 40 }, (_, i) => get(`/api/v1/courses?per_page=${i + 1}`, { 'if-none-match': '*' }).then((res) => res.status)),
    );
    assert.deepEqual(new Set(many), new Set([304]));

    const after = await get('/api/v1/organization');
    assert.equal(after.status, 200, 'the process still answers');
    assert.equal(server.child.exitCode, null, `the process exited; output:\n${server.output()}`);
    assert.doesNotMatch(server.output(), /ERR_HTTP_HEADERS_SENT|Reply was already sent/);
  });

  test('every request counts against the quota, a 304 included', async () => {
    const res = await get('/api/v1/organization');
    const etag = res.headers.get('etag') as string;
    const before = Number(res.headers.get('x-ratelimit-remaining'));
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await get('/api/v1/organization', { 'if-none-match': etag })).status);
    assert.deepEqual(statuses, [304, 304, 304, 304, 304]);
    const later = await get('/api/v1/organization');
    assert.equal(Number(later.headers.get('x-ratelimit-remaining')), before - 6, 'five 304s and one 200 cost six requests');
  });
});
