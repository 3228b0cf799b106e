import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { runCli } from '../support/cli.ts';
import { dialect } from '../support/env.ts';
import { assertError } from '../support/errors.ts';
import { seenAfterRemoteWrite } from '../support/eventually.ts';
import { type Fixtures, fixtures } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

/**
 * Roles and permissions (CONTRACT, "Staff sign-in and the console"): granted by the administration,
 * shown on a user's record, and enforced in the services, so that a token tied to a user and
 * `academy admin --as` that user are held to the same rules.
 */
describe('roles and permissions', () => {
  let app: TestApp;
  let make: Fixtures;
  let env: Record<string, string>;
  let reader: string;
  const cli = (...args: string[]) => runCli(['--json', ...args], env);
  const data = (value: unknown) => ['--data', JSON.stringify(value)];
  const codeOf = (stderr: string) => JSON.parse(stderr.trim().split('\n').pop() as string).code;

  /** An active staff user granted `roles` through the administration, and a token tied to them. */
  const staffWith = async (roles: string[]) => {
    const user = await make.staff();
    const granted = await cli('admin', 'users', 'grant', String(user.id), ...data({ roles }));
    assert.equal(granted.code, 0, granted.stderr);
    const token = await make.token(['*'], { userId: user.id });
    return { id: user.id, token: token.secret };
  };

  before(async () => {
    app = await createTestApp();
    make = fixtures(app.platform);
    env = { DATABASE_URL: app.platform.database.url, ACADEMY_DATA_DIR: app.platform.config.dataDir };
    reader = await app.token(['users:read']);
  });

  test("a user's record shows roles, direct permissions and the effective set (API and CLI alike)", async () => {
    const user = await make.staff({ permissions: JSON.stringify(['audit.read']) });
    const granted = await cli('admin', 'users', 'grant', String(user.id), ...data({ roles: ['registrar', 'approver', 'registrar'] }));
    assert.equal(granted.code, 0, granted.stderr);
    const fromCli = JSON.parse(granted.stdout);
    const res = await app.http.inject({ method: 'GET', url: `/api/v1/users/${user.id}`, headers: bearer(reader) });
    assert.equal(res.statusCode, 200, res.body);
    const record = res.json().data;
    assert.deepEqual(record.roles, ['approver', 'registrar'], 'each once, sorted');
    assert.deepEqual(record.permissions, ['audit.read'], 'direct grants are kept when only roles are given');
    assert.deepEqual(record.effective_permissions, [
      'audit.read',
      'certificates.manage',
      'courses.approve',
      'documents.approve',
      'enrolments.manage',
      'reports.manage',
      'students.manage',
    ]);
    assert.deepEqual(fromCli.effective_permissions, record.effective_permissions);

    const unknown = await cli('admin', 'users', 'grant', String(user.id), ...data({ roles: ['superuser'] }));
    assert.equal(unknown.code, 1);
    assert.equal(codeOf(unknown.stderr), 'validation_failed');
  });

  test('an approver decides a course approval with a token tied to them; a viewer gets 403 permission_denied', async () => {
    const approver = await staffWith(['approver']);
    const viewer = await staffWith(['viewer']);
    const course = await make.course({ status: 'review' });
    const workflow = await make.workflow({ subject_id: course.id });
    const decide = (token: string) =>
      app.http.inject({
        method: 'POST',
        url: `/api/v1/workflows/${workflow.id}/transition`,
        headers: bearer(token),
        payload: { to_state: 'in_review' },
      });
    assertError(await decide(viewer.token), 403, 'permission_denied');
    const res = await decide(approver.token);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.state, 'in_review');
  });

  /** Renames the organization (operations.manage) with `token`. */
  const rename = (token: string, name: string) =>
    app.http.inject({ method: 'PATCH', url: '/api/v1/organization', headers: bearer(token), payload: { name } });
  const organizationName = async () =>
    (await app.platform.database.db.selectFrom('organization').select('name').executeTakeFirstOrThrow()).name;

  test('a token tied to a user may change only what the user may: a viewer or a registrar cannot, an administrator can', async () => {
    const viewer = await staffWith(['viewer']);
    const registrar = await staffWith(['registrar']);
    const administrator = await staffWith(['administrator']);
    const before = await organizationName();
    assertError(await rename(viewer.token, 'Renamed by a viewer'), 403, 'permission_denied');
    assertError(await rename(registrar.token, 'Renamed by a registrar'), 403, 'permission_denied');
    assert.equal(await organizationName(), before, 'nothing was changed');
    const done = await rename(administrator.token, 'Renamed by an administrator');
    assert.equal(done.statusCode, 200, done.body);
    assert.equal(await organizationName(), 'Renamed by an administrator');
    // A token that acts for nobody is bounded by its scopes alone.
    const integration = await app.token(['organization:write']);
    assert.equal((await rename(integration, 'Renamed by an integration')).statusCode, 200);
  });

  test('a permission granted later applies to a token already in use (every process sees it)', async () => {
    const user = await staffWith(['viewer']);
    assertError(await rename(user.token, 'Not yet'), 403, 'permission_denied');
    // The grant is made by another process (the CLI): this one hears of it through the change feed.
    assert.equal((await cli('admin', 'users', 'grant', String(user.id), ...data({ permissions: ['operations.manage'] }))).code, 0);
    const allowed = await seenAfterRemoteWrite(
      dialect,
      async () => (await rename(user.token, 'Now allowed')).statusCode === 200,
      'the new permission',
    );
    assert.equal(allowed, true);
    assert.equal((await cli('admin', 'users', 'grant', String(user.id), ...data({ permissions: [] }))).code, 0);
    const refused = await seenAfterRemoteWrite(
      dialect,
      async () => (await rename(user.token, 'Taken back')).statusCode === 403,
      'the refusal',
    );
    assert.equal(refused, true);
    assertError(await rename(user.token, 'Taken back'), 403, 'permission_denied');
  });

  test('academy admin --as a user: the same rules as the API', async () => {
    const viewer = await staffWith(['viewer']);
    const coordinator = await staffWith(['coordinator']);
    const course = (n: string) =>
      data({ slug: `as-${n}`, code: `AS-${n}`, title: 'As a user', price: '10.00', currency: 'EUR', language: 'en' });

    const refused = await cli('admin', '--as', String(viewer.id), 'courses', 'create', ...course(`v${viewer.id}`));
    assert.equal(refused.code, 1, refused.stderr);
    assert.equal(codeOf(refused.stderr), 'permission_denied');
    const made = await cli('admin', '--as', String(coordinator.id), 'courses', 'create', ...course(`c${coordinator.id}`));
    assert.equal(made.code, 0, made.stderr);
    assert.equal(JSON.parse(made.stdout).status, 'draft');

    // The coordinator sends it to review; approving it is an approver's decision, not theirs.
    const slug = JSON.parse(made.stdout).slug as string;
    const approver = await staffWith(['approver']);
    const move = (as: number, to: string) => cli('admin', '--as', String(as), 'courses', 'transition', slug, ...data({ to_state: to }));
    assert.equal((await move(coordinator.id, 'review')).code, 0);
    const selfApproved = await move(coordinator.id, 'approved');
    assert.equal(codeOf(selfApproved.stderr), 'permission_denied', 'a coordinator cannot approve their own course');
    const approved = await move(approver.id, 'approved');
    assert.equal(approved.code, 0, approved.stderr);
    assert.equal(JSON.parse(approved.stdout).status, 'approved');
    assert.equal(codeOf((await move(approver.id, 'published')).stderr), 'permission_denied', 'publishing is the catalogue’s');
    assert.equal(JSON.parse((await move(coordinator.id, 'published')).stdout).status, 'published');

    // Its own fields, through the administration as the console's edit form changes them.
    const fields = data({ title: 'As a user, renamed', price: '12.00', currency: 'EUR', language: 'en', description: null });
    assert.equal(codeOf((await cli('admin', '--as', String(viewer.id), 'courses', 'update', slug, ...fields)).stderr), 'permission_denied');
    const updated = await cli('admin', '--as', String(coordinator.id), 'courses', 'update', slug, ...fields);
    assert.equal(updated.code, 0, updated.stderr);
    assert.deepEqual([JSON.parse(updated.stdout).title, JSON.parse(updated.stdout).status], ['As a user, renamed', 'published']);

    // Granting needs users.manage: a coordinator is refused, the operator (no --as) is not.
    const grant = await cli(
      'admin',
      '--as',
      String(coordinator.id),
      'users',
      'grant',
      String(viewer.id),
      ...data({ roles: ['administrator'] }),
    );
    assert.equal(codeOf(grant.stderr), 'permission_denied');

    const suspended = await make.staff({ status: 'suspended' });
    const inactive = await cli('admin', '--as', String(suspended.id), 'users', 'list');
    assert.equal(inactive.code, 1);
    assert.equal(codeOf(inactive.stderr), 'validation_failed');
    assert.match(inactive.stderr, /active staff user/);
  });
});
