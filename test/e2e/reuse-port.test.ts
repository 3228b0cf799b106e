import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { runAcademy, startNode, startServer } from '../support/process.ts';
import { freePort } from '../support/sockets.ts';

describe('ACADEMY_REUSE_PORT: several serve processes on one port', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let token: string;

  before(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url, ACADEMY_DATA_DIR: database.dataDir };
    const created = await runAcademy(['tokens', 'create', '--name', 'reuse', '--scopes', 'organization:read', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    token = JSON.parse(created.stdout).token;
  });

  after(async () => {
    await database?.drop();
  });

  test('without it a second process on a taken port stops; with it both listen and either serves the port alone', async () => {
    const port = String(await freePort());
    const first = await startServer(['--no-worker'], { ...env, PORT: port });
    const refused = startNode(['bin/academy.js', 'serve', '--no-worker'], { ...env, PORT: port, HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
    assert.notEqual(await refused.exited, 0);
    assert.match(refused.output(), /EADDRINUSE/);
    first.child.kill('SIGTERM');
    await first.exited;

    const shared = { ...env, PORT: port, ACADEMY_REUSE_PORT: 'true' };
    const a = await startServer(['--no-worker'], shared);
    const b = await startServer(['--no-worker'], shared);
    assert.equal(a.url, b.url);
    const read = () =>
      fetch(`${a.url}/api/v1/organization`, { headers: { authorization: `Bearer ${token}`, connection: 'close' } }).then((r) => r.status);
    assert.deepEqual(await Promise.all(Array.from({ length: 20 }, read)), Array(20).fill(200));

    // The port stays served while one of the processes is gone: the other one listens on it too.
    a.child.kill('SIGKILL');
    await a.exited;
    assert.deepEqual(await Promise.all(Array.from({ length: 20 }, read)), Array(20).fill(200));
    b.child.kill('SIGTERM');
    await b.exited;
  });
});
