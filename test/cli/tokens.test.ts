import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { jsonError, runCli } from '../support/cli.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { runAcademy } from '../support/process.ts';

describe('academy tokens create validates its input', () => {
  let database: TestDatabase;

  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  function create(...options: string[]) {
    return runCli(['--json', 'tokens', 'create', '--scopes', 'organization:read', ...options], {
      DATABASE_URL: database.url,
      ACADEMY_DATA_DIR: database.dataDir,
    });
  }

  test('--expires-in-days outside 1-36500 is refused with a message naming the option', async () => {
    for (const days of ['999999999', '36501', '0']) {
      const refused = await create('--name', 'far', '--expires-in-days', days);
      assert.equal(refused.code, 1, days);
      assert.match(jsonError(refused.stderr), /--expires-in-days: The expiry must be a whole number of days from 1 to 36500\./, days);
      assert.doesNotMatch(refused.stderr, /Invalid time value/);
    }
    const longest = await create('--name', 'century', '--expires-in-days', '36500');
    assert.equal(longest.code, 0, longest.stderr);
    assert.ok(Date.parse(JSON.parse(longest.stdout).expires_at) > Date.now() + 99 * 365 * 86_400_000);
  });

  test('the real process refuses an out-of-range expiry with exit code 1', async () => {
    const refused = await runAcademy(['tokens', 'create', '--name', 'x', '--scopes', 'organization:read', '--expires-in-days', '0'], {
      DATABASE_URL: database.url,
      ACADEMY_DATA_DIR: database.dataDir,
    });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /--expires-in-days/);
  });

  test('under --json an error is JSON on stderr; a mistyped scope is named with its likely meaning', async () => {
    const typo = await create('--name', 'typo', '--scopes', 'student:read');
    assert.equal(typo.code, 1);
    const body = JSON.parse(typo.stderr);
    assert.equal(body.code, 'validation_failed');
    assert.match(body.errors['--scopes'][0], /Did you mean students:read \(for student:read\)\?/);
    const usage = await runCli(['--json', 'tokens', 'creat'], { DATABASE_URL: database.url, ACADEMY_DATA_DIR: database.dataDir });
    assert.notEqual(usage.code, 0);
    assert.deepEqual(JSON.parse(usage.stderr), { message: "unknown command 'creat'\n(Did you mean create?)", code: 'usage' });
    const human = await runCli(['tokens', 'creat'], { DATABASE_URL: database.url, ACADEMY_DATA_DIR: database.dataDir });
    assert.match(human.stderr, /unknown command 'creat'\n\(Did you mean create\?\)\n\(academy --help/);
    assert.ok(human.stderr.split('\n').length < 6, 'a usage error is short, not the whole help');
    const version = await runCli(['--version'], { ACADEMY_COMMIT: '0123abc' });
    assert.deepEqual(version.stdout.trim().split('\n'), [
      `academy ${JSON.parse(readFileSync('package.json', 'utf8')).version}`,
      'commit 0123abc',
      `Node.js ${process.version}`,
      'API v1 (active)',
    ]);
  });

  test('a name is 1-100 characters without control characters', async () => {
    const long = await create('--name', 'x'.repeat(101));
    assert.equal(long.code, 1);
    assert.match(jsonError(long.stderr), /--name: The name must be at most 100 characters\./);
    const control = await create('--name', 'ops\nAuthorization: x');
    assert.equal(control.code, 1);
    assert.match(jsonError(control.stderr), /--name: The name must not contain control characters \(line breaks, tabs\)\./);
    const blank = await create('--name', '   ');
    assert.equal(blank.code, 1);
    assert.match(jsonError(blank.stderr), /--name: A name is required\./);
    assert.equal((await create('--name', 'é'.repeat(100))).code, 0, 'a hundred characters are accepted');

    const list = await runCli(['--json', 'tokens', 'list'], { DATABASE_URL: database.url, ACADEMY_DATA_DIR: database.dataDir });
    assert.deepEqual(
      JSON.parse(list.stdout).map((t: { name: string }) => t.name.length),
      [7, 100],
      'only the valid tokens were stored',
    );
  });
});
