import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../support/cli.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { runAcademy } from '../support/process.ts';

describe('academy admin integrations', () => {
  let database: TestDatabase;

  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  function academy(args: string[], env: Record<string, string> = {}) {
    return runCli(args, { DATABASE_URL: database.url, ACADEMY_DATA_DIR: database.dataDir, ...env });
  }

  test('create prints the record with the credential masked', async () => {
    const data = {
      key: 'crm',
      name: 'CRM',
      url: 'https://93.184.215.14/inbound',
      events: ['enrollment.created'],
      auth_header: 'Bearer xyz',
    };
    const created = await academy(['--json', 'admin', 'integrations', 'create', '--data', JSON.stringify(data)]);
    assert.equal(created.code, 0, created.stderr);
    const record = JSON.parse(created.stdout);
    assert.equal(record.key, 'crm');
    assert.equal(record.url, 'https://93.184.215.14/inbound');
    assert.deepEqual(record.events, ['enrollment.created']);
    assert.equal(record.auth_header, 'Bearer ****');
    assert.ok(!created.stdout.includes('xyz'), 'the credential is never printed');

    const listed = await academy(['--json', 'admin', 'integrations', 'list']);
    assert.deepEqual(
      JSON.parse(listed.stdout).map((i: { key: string; auth_header: string }) => [i.key, i.auth_header]),
      [['crm', 'Bearer ****']],
    );
  });

  test('disable and enable switch an integration by key; an unknown key is refused', async () => {
    const disabled = await academy(['--json', 'admin', 'integrations', 'disable', 'crm']);
    assert.equal(disabled.code, 0, disabled.stderr);
    assert.equal(JSON.parse(disabled.stdout).enabled, false);
    const listed = await academy(['--json', 'admin', 'integrations', 'list']);
    assert.equal(JSON.parse(listed.stdout)[0].enabled, false);

    const enabled = await academy(['admin', 'integrations', 'enable', 'crm']);
    assert.equal(enabled.code, 0, enabled.stderr);
    assert.match(enabled.stdout, /Integration crm enabled\./);

    const unknown = await academy(['admin', 'integrations', 'disable', 'nope']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /No integration has the key "nope"\./);
  });

  test('the real process lists the integrations as JSON', async () => {
    const listed = await runAcademy(['--json', 'admin', 'integrations', 'list'], {
      DATABASE_URL: database.url,
      ACADEMY_DATA_DIR: database.dataDir,
    });
    assert.equal(listed.code, 0, listed.stderr);
    assert.ok(Array.isArray(JSON.parse(listed.stdout)));
  });

  test('invalid data is refused field by field', async () => {
    const refused = await academy(['admin', 'integrations', 'create', '--data', '{"key":"crm","name":"Again","url":"http://10.0.0.1/"}']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /key: An integration with the key "crm" already exists\./);
    assert.match(refused.stderr, /url: The host 10\.0\.0\.1 is a private address/);

    const notJson = await academy(['admin', 'integrations', 'create', '--data', '{key:']);
    assert.equal(notJson.code, 1);
    assert.match(notJson.stderr, /--data must be a JSON object/);
  });
});
