import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { jsonError, runCli } from '../support/cli.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { runAcademy } from '../support/process.ts';

describe('academy admin tasks', () => {
  let database: TestDatabase;
  let env: Record<string, string>;

  before(async () => {
    database = await createTestDatabase();
    env = { DATABASE_URL: database.url, ACADEMY_DATA_DIR: database.dataDir };
  });
  after(() => database.drop());

  test('disable by task type and enable by id print the record (--json)', async () => {
    const disabled = await runAcademy(['--json', 'admin', 'tasks', 'disable', 'health.run_checks'], env);
    assert.equal(disabled.code, 0, disabled.stderr);
    const task = JSON.parse(disabled.stdout);
    assert.equal(task.task_type, 'health.run_checks');
    assert.equal(task.enabled, false);
    assert.equal(task.next_run_at, null);

    const list = await runCli(['--json', 'admin', 'tasks', 'list'], env);
    const listed = JSON.parse(list.stdout).find((t: { id: number }) => t.id === task.id);
    assert.equal(listed.enabled, false, 'the change is stored');

    const enabled = await runCli(['--json', 'admin', 'tasks', 'enable', String(task.id)], env);
    assert.equal(enabled.code, 0, enabled.stderr);
    const again = JSON.parse(enabled.stdout);
    assert.equal(again.enabled, true);
    assert.ok(Date.parse(again.next_run_at) > Date.now() - 1000, 'the next run is scheduled from now');

    const text = await runCli(['admin', 'tasks', 'disable', 'jobs.prune_failed'], env);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /^Task \d+ \(jobs\.prune_failed\) disabled\./);
  });

  test('an unknown task is an error on stderr with a non-zero exit code', async () => {
    const result = await runCli(['--json', 'admin', 'tasks', 'enable', 'reports.nope'], env);
    assert.notEqual(result.code, 0);
    assert.equal(result.stdout, '');
    assert.match(jsonError(result.stderr), /No task has the id or task type "reports\.nope"/);
  });
});
