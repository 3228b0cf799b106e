import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { PERMISSION_NAMES } from '../../src/platform/permissions.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { runCli } from '../support/cli.ts';
import { fixtures } from '../support/fixtures.ts';
import { createTestPlatform } from '../support/platform.ts';
import { runAcademy } from '../support/process.ts';

describe('academy admin users and notifications', () => {
  let platform: Platform;
  let env: Record<string, string>;
  const cli = (...args: string[]) => runCli(['--json', ...args], env);
  const admin = async (...args: string[]) => {
    const result = await cli('admin', ...args);
    assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  };
  const data = (value: unknown) => ['--data', JSON.stringify(value)];
  const errorsOf = (stderr: string) => JSON.parse(stderr.trim().split('\n').pop() as string).errors;
  const notificationsOf = (id: number) =>
    platform.database.db.selectFrom('notifications').select('type').where('user_id', '=', id).orderBy('id').execute();

  before(async () => {
    platform = await createTestPlatform();
    env = { DATABASE_URL: platform.database.url, ACADEMY_DATA_DIR: platform.config.dataDir };
  });

  test('create with permissions, invite, activate (one activation notice), grant, list', async () => {
    const user = await admin(
      'users',
      'create',
      ...data({ name: 'Mary Jackson', email: 'Mary.Jackson@Example.org', job_title: 'Engineer', permissions: ['courses.approve'] }),
    );
    assert.deepEqual(
      [user.status, user.email, user.permissions, user.job_title],
      ['draft', 'mary.jackson@example.org', ['courses.approve'], 'Engineer'],
    );
    assert.deepEqual(await notificationsOf(user.id), [], 'creation sends nothing');

    assert.equal((await admin('users', 'invite', String(user.id))).status, 'invited');
    const active = await admin('users', 'activate', String(user.id));
    assert.equal(active.status, 'active');
    assert.ok(active.activated_at);
    assert.deepEqual(
      (await notificationsOf(user.id)).map((n) => n.type),
      ['invitation', 'activation'],
    );

    const again = await cli('admin', 'users', 'activate', String(user.id));
    assert.notEqual(again.code, 0, 'an active user cannot be activated');
    assert.match(again.stderr, /activate/);
    assert.equal((await notificationsOf(user.id)).length, 2, 'a refused move queues nothing');

    const granted = await admin(
      'users',
      'grant',
      String(user.id),
      ...data({ permissions: ['documents.approve', 'courses.approve', 'courses.approve'] }),
    );
    assert.deepEqual(granted.permissions, ['courses.approve', 'documents.approve'], 'the set is replaced, sorted and without repeats');
    assert.deepEqual((await admin('users', 'grant', String(user.id), ...data({ permissions: [] }))).permissions, []);

    const listed = await admin('users', 'list');
    assert.ok(listed.some((u: { id: number }) => u.id === user.id));
    assert.deepEqual(
      (await admin('users', 'list', '--status', 'active')).map((u: { status: string }) => u.status),
      listed.filter((u: { status: string }) => u.status === 'active').map(() => 'active'),
    );
    const notifications = await admin('notifications', 'list', '--type', 'activation');
    assert.ok(notifications.some((n: { user_id: number }) => n.user_id === user.id));
  });

  test('unknown permissions, a missing permissions field and a student are refused', async () => {
    const user = await admin('users', 'create', ...data({ name: 'Dorothy Vaughan', email: 'dorothy@example.org' }));
    const unknown = await cli('admin', 'users', 'grant', String(user.id), ...data({ permissions: ['courses.approve', 'root'] }));
    assert.notEqual(unknown.code, 0);
    assert.deepEqual(errorsOf(unknown.stderr), {
      'permissions.1': [`The permissions.1 field must be one of: ${PERMISSION_NAMES.join(', ')}.`],
    });
    const missing = await cli('admin', 'users', 'grant', String(user.id), ...data({}));
    assert.notEqual(missing.code, 0);
    assert.deepEqual(errorsOf(missing.stderr), { data: ['The data field must not be empty.'] }, 'roles, permissions or both');
    const badCreate = await cli('admin', 'users', 'create', ...data({ name: 'X', email: 'x@example.org', permissions: 'all' }));
    assert.notEqual(badCreate.code, 0);
    assert.deepEqual(errorsOf(badCreate.stderr), { permissions: ['The permissions field must be a list.'] });
    const emptyUpdate = await cli('admin', 'users', 'update', String(user.id), ...data({}));
    assert.notEqual(emptyUpdate.code, 0, 'an update without a field is refused, as an empty PATCH is');
    assert.deepEqual(errorsOf(emptyUpdate.stderr), { data: ['The data field must not be empty.'] });

    const student = await fixtures(platform).student();
    const grantStudent = await cli('admin', 'users', 'grant', String(student.id), ...data({ permissions: ['courses.approve'] }));
    assert.notEqual(grantStudent.code, 0, 'a student is not staff');
    const stored = await platform.database.db
      .selectFrom('users')
      .select('permissions')
      .where('id', '=', student.id)
      .executeTakeFirstOrThrow();
    assert.equal(stored.permissions, '[]');
  });

  test('tokens create --user EMAIL acts for a staff user; the real process runs the users commands', async () => {
    const staff = await admin('users', 'create', ...data({ name: 'Annie Easley', email: 'annie.easley@example.org' }));
    const token = await cli('tokens', 'create', '--name', 'annie', '--scopes', 'users:read', '--user', 'ANNIE.EASLEY@example.org');
    assert.equal(token.code, 0, token.stderr);
    assert.equal(JSON.parse(token.stdout).user_id, staff.id);

    const real = await runAcademy(['--json', 'admin', 'users', 'list', '--status', 'draft'], env);
    assert.equal(real.code, 0, real.stderr);
    assert.ok(JSON.parse(real.stdout).some((u: { id: number }) => u.id === staff.id));
  });
});
