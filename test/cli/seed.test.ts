import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { runAcademy } from '../support/process.ts';

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
    const again = await runAcademy(['--json', 'seed', '--demo'], env);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(JSON.parse(again.stdout), { seeded: false, token: null });
  });

  test('refuses a database that holds data of its own, and leaves it as it was', async () => {
    const env = await environment();
    const created = await runAcademy(['--json', 'tokens', 'create', '--name', 'ops', '--scopes', 'organization:read'], env);
    assert.equal(created.code, 0, created.stderr);
    const refused = await runAcademy(['seed', '--demo'], env);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /already holds data/);
    const tokens = JSON.parse((await runAcademy(['--json', 'tokens', 'list'], env)).stdout) as { name: string }[];
    assert.deepEqual(
      tokens.map((t) => t.name),
      ['ops'],
      'no demo token was added',
    );
  });
});
