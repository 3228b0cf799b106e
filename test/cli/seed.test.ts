import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { runCli } from '../support/cli.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { runAcademy, startServer } from '../support/process.ts';

describe('academy seed --demo', () => {
  const databases: TestDatabase[] = [];
  after(async () => {
    for (const database of databases) await database.drop();
  });
  async function environment() {
    const database = await createTestDatabase();
    databases.push(database);
    return { DATABASE_URL: database.url, ACADEMY_DATA_DIR: database.dataDir };
  }

  test('fills an empty database once and prints an all-scopes token; a second run changes nothing', async () => {
    const env = await environment();
    const first = await runAcademy(['--json', 'seed', '--demo'], env);
    assert.equal(first.code, 0, first.stderr);
    const seeded = JSON.parse(first.stdout);
    assert.equal(seeded.seeded, true);
    assert.match(seeded.token, /^acd_/);
    const again = await runCli(['--json', 'seed', '--demo'], env);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout), { seeded: false, token: null, admin_link: null });
  });

  test('refuses a database that holds data of its own, and leaves it as it was', async () => {
    const env = await environment();
    const created = await runCli(['--json', 'tokens', 'create', '--name', 'ops', '--scopes', 'organization:read'], env);
    assert.equal(created.code, 0, created.stderr);
    const refused = await runCli(['seed', '--demo'], env);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /already holds data/);
    const tokens = JSON.parse((await runCli(['--json', 'tokens', 'list'], env)).stdout) as { name: string }[];
    assert.deepEqual(
      tokens.map((t) => t.name),
      ['ops'],
      'no demo token was added',
    );
  });

  test('refuses a database that already has a catalogue, even without a token', async () => {
    const env = await environment();
    const course = { slug: 'own-course', title: 'Our own course', code: 'OWN-1', price: '10.00', currency: 'EUR', language: 'en' };
    const created = await runCli(['admin', 'courses', 'create', '--data', JSON.stringify(course)], env);
    assert.equal(created.code, 0, created.stderr);
    const refused = await runCli(['seed', '--demo'], env);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /already holds data/);
    const courses = JSON.parse((await runCli(['--json', 'admin', 'courses', 'list'], env)).stdout) as { slug: string }[];
    assert.deepEqual(
      courses.map((c) => c.slug),
      ['own-course'],
    );
  });

  test('serve --demo prints the saved demo token on later starts, and says so when it was revoked', async () => {
    const env = await environment();
    // Each start migrates, and the first also seeds: on PostgreSQL beside the rest of CI's two suites
    // on two cores, a first start has taken more than the default 30 s to listen.
    const start = () => startServer(['--demo', '--no-worker'], env, 90_000);
    const first = await start();
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0);
    const token = /Demo token \(all scopes[^\n]*\n\n\s+(acd_\S+)/.exec(first.output())?.[1];
    assert.ok(token, first.output());

    const again = await start();
    again.child.kill('SIGTERM');
    assert.equal(await again.exited, 0);
    assert.ok(again.output().includes(token), 'the saved token is shown again');

    const listed = JSON.parse((await runCli(['--json', 'tokens', 'list'], env)).stdout) as { id: number; name: string }[];
    const demo = listed.find((t) => t.name === 'demo');
    assert.ok(demo);
    assert.equal((await runCli(['tokens', 'revoke', String(demo.id)], env)).code, 0);
    const revoked = await start();
    revoked.child.kill('SIGTERM');
    assert.equal(await revoked.exited, 0);
    assert.ok(!revoked.output().includes(token), 'a revoked token is not offered');
    assert.match(revoked.output(), /was revoked or has expired/);
  });
});
