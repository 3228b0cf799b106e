import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';
import { runAcademy } from '../support/process.ts';

interface ErrorBody {
  message: string;
  code: string;
  errors: Record<string, string[]>;
}

/**
 * One schema per input: a staff user created over HTTP (`POST /users`) and with `academy admin users
 * create --data` is checked by the same schema, so one mistake reads the same on both surfaces, and
 * every invalid field is named at once.
 */
describe('one message for one mistake, over HTTP and at the command line', () => {
  let app: TestApp;
  let token: string;

  const post = async (body: unknown) => {
    const res = await app.http.inject({ method: 'POST', url: '/api/v1/users', headers: bearer(token), payload: body as object });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().code, 'validation_failed', res.body);
    return res.json() as ErrorBody;
  };

  before(async () => {
    app = await createTestApp();
    token = await app.token(['users:read', 'users:write']);
  });

  test('a malformed email: the same errors.email from POST /users and from academy admin users create', async () => {
    const data = { name: 'Ada', email: 'not an address' };
    const http = await post(data);
    const env = { DATABASE_URL: app.platform.database.url, ACADEMY_DATA_DIR: app.platform.config.dataDir };
    const cli = await runAcademy(['--json', 'admin', 'users', 'create', '--data', JSON.stringify(data)], env);
    assert.notEqual(cli.code, 0, cli.stdout);
    const printed = JSON.parse(cli.stderr.trim().split('\n').pop() as string) as ErrorBody;

    assert.equal(http.code, 'validation_failed');
    assert.equal(printed.code, 'validation_failed');
    assert.deepEqual(Object.keys(http.errors), ['email']);
    assert.deepEqual(printed.errors.email, http.errors.email);
    assert.deepEqual(Object.keys(printed.errors), ['email']);
  });

  test('two mistakes over HTTP: both fields are named', async () => {
    const body = await post({ name: '', email: 'xxx' });
    assert.equal(body.code, 'validation_failed');
    assert.deepEqual(Object.keys(body.errors).sort(), ['email', 'name']);
  });
});
