import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { hashSecret } from '../../src/modules/staff-auth/secrets.ts';
import { FAILURE_LIMIT } from '../../src/modules/staff-auth/service.ts';
import { PERMISSION_NAMES } from '../../src/platform/permissions.ts';
import { runCli } from '../support/cli.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { type FormClient, formClient } from '../support/forms.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

const PASSWORD = 'quiet-harbour-lantern-1987';

/**
 * Staff sign-in with a password (CONTRACT, "Staff sign-in and the console"), through the pages as a
 * browser uses them: the session cookie, CSRF tokens, the generic failure, the per-email wait, and
 * sessions ended by a suspension, a password change or the administration.
 */
describe('staff sign-in', () => {
  let app: TestApp;
  let make: Fixtures;
  let admin: string;

  /** An active staff user with PASSWORD. */
  const staffWithPassword = async () => {
    const user = await make.staff({ name: unique('Signer') });
    await app.services.staffAuth.setPassword(app.platform.database.db, user.id, PASSWORD);
    return user;
  };
  const signIn = (browser: FormClient, email: string, password: string, next = '/console') =>
    browser.submit(`/console/sign-in?next=${encodeURIComponent(next)}`, '/console/sign-in', { email, password, next });
  const home = (browser: FormClient) => browser.request('GET', '/console');
  /** The user's own page: their sessions, passkeys and password. */
  const account = (browser: FormClient) => browser.request('GET', '/console/account');
  const openSessions = async (userId: number) =>
    (
      await app.platform.database.db
        .selectFrom('staff_sessions')
        .select('id')
        .where('user_id', '=', userId)
        .where('ended_at', 'is', null)
        .execute()
    ).length;

  before(async () => {
    app = await createTestApp();
    make = fixtures(app.platform);
    admin = await app.token(['users:read', 'users:write']);
  });

  test('without a session the console sends to the sign-in page, keeping where the user was going', async () => {
    const res = await formClient(app.http).request('GET', '/console');
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/console/sign-in?next=%2Fconsole');
  });

  test('sign in, the console, sign out, sign in again; the cookie is HttpOnly, SameSite=Lax, Path=/', async () => {
    const user = await staffWithPassword();
    const browser = formClient(app.http);
    const signedIn = await signIn(browser, user.email.toUpperCase(), PASSWORD);
    assert.equal(signedIn.statusCode, 303, signedIn.body);
    assert.equal(signedIn.headers.location, '/console');
    const cookie = String(signedIn.headers['set-cookie']);
    assert.match(cookie, /^academy_session=[A-Za-z0-9_-]{43};/);
    for (const attribute of ['HttpOnly', 'SameSite=Lax', 'Path=/']) assert.ok(cookie.includes(attribute), `${attribute} in ${cookie}`);
    assert.ok(!cookie.includes('Secure'), 'not Secure without an https public URL');

    const page = await home(browser);
    assert.equal(page.statusCode, 200, page.body);
    assert.ok(page.body.includes(user.name), 'the console shows who is signed in');
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'.*frame-ancestors 'none'/);
    assert.match(String(page.headers['content-security-policy']), /script-src 'self';/, 'scripts from the site only');
    assert.ok(!/<script(?![^>]*\ssrc="\/console\/assets\/)/i.test(page.body), 'no inline script: only the console’s own files');

    const out = await browser.request('POST', '/console/sign-out', { _csrf: browser.csrfOf(page.body) });
    assert.equal(out.statusCode, 303);
    assert.equal(out.headers.location, '/console/sign-in');
    assert.equal((await home(browser)).statusCode, 303, 'signed out');
    assert.equal(await openSessions(user.id), 0);

    assert.equal((await signIn(browser, user.email, PASSWORD, '/console?tab=sessions')).headers.location, '/console?tab=sessions');
    assert.equal((await home(browser)).statusCode, 200, 'signed in again');
  });

  test('another origin in `next` is ignored: the user lands on the console', async () => {
    const user = await staffWithPassword();
    for (const next of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      const res = await signIn(formClient(app.http), user.email, PASSWORD, next);
      assert.equal(res.headers.location, '/console', next);
    }
  });

  test('a wrong password and an unknown email get byte-identical pages (401)', async () => {
    const user = await staffWithPassword();
    const browser = formClient(app.http);
    const wrong = await signIn(browser, user.email, 'not-the-password-at-all');
    const unknown = await signIn(browser, `nobody.${unique('x')}@example.org`.toLowerCase(), PASSWORD);
    // status only: an HTML page (what it says is checked where it matters)
    assert.equal(wrong.statusCode, 401);
    // status only: an HTML page (what it says is checked where it matters)
    assert.equal(unknown.statusCode, 401);
    assert.equal(wrong.body, unknown.body);
    assert.match(wrong.body, /The email or password is not right/);
    assert.ok(!browser.jar.has('academy_session'));

    // The audit trail has both failures, and then the sign-in, through the console.
    await signIn(browser, user.email, PASSWORD);
    const events = await app.platform.database.db
      .selectFrom('audit_events')
      .select(['action', 'actor_type', 'actor_id', 'subject_id', 'via', 'ip'])
      .where('action', 'like', 'session.%')
      .where((eb) => eb.or([eb('subject_id', '=', user.id), eb('actor_name', 'like', 'nobody.%')]))
      .orderBy('id')
      .execute();
    assert.deepEqual(
      events.map((e) => [e.action, e.actor_type, e.actor_id, e.via]),
      [
        ['session.sign_in_failed', 'user', user.id, 'console'],
        ['session.sign_in_failed', 'user', null, 'console'],
        ['session.signed_in', 'user', user.id, 'console'],
      ],
    );
    assert.ok(events.every((e) => e.ip === browser.address));
  });

  test(`after ${FAILURE_LIMIT} failures for one email, attempts for it wait (429 with Retry-After), even with the right password`, async () => {
    const user = await staffWithPassword();
    for (let i = 0; i < FAILURE_LIMIT; i++) {
      // From other addresses each time: the wait is per email, not per address.
      // status only: an HTML page (what it says is checked where it matters)
      assert.equal((await signIn(formClient(app.http), user.email, `wrong-password-${i}`)).statusCode, 401);
    }
    const waiting = await signIn(formClient(app.http), user.email, PASSWORD);
    // status only: an HTML page (what it says is checked where it matters)
    assert.equal(waiting.statusCode, 429);
    assert.ok(Number(waiting.headers['retry-after']) > 0 && Number(waiting.headers['retry-after']) <= 900);
    const other = await staffWithPassword();
    assert.equal((await signIn(formClient(app.http), other.email, PASSWORD)).statusCode, 303, 'another email is not held up');
  });

  test('a POST without a valid _csrf is a 403 and changes nothing', async () => {
    const user = await staffWithPassword();
    const browser = formClient(app.http);
    await signIn(browser, user.email, PASSWORD);
    for (const form of [{}, { _csrf: 'forged' }] as Record<string, string>[]) {
      const res = await browser.request('POST', '/console/sign-out', form);
      // status only: an HTML page (what it says is checked where it matters)
      assert.equal(res.statusCode, 403);
      assert.match(res.body, /did not come from this site/);
    }
    assert.equal((await home(browser)).statusCode, 200, 'still signed in');
    // The sign-in form needs it too (no login CSRF).
    const noToken = await formClient(app.http).request('POST', '/console/sign-in', { email: user.email, password: PASSWORD });
    // status only: an HTML page (what it says is checked where it matters)
    assert.equal(noToken.statusCode, 403);
    // A token of another browser is worth nothing here.
    const other = formClient(app.http);
    const stolen = await other.csrf();
    const res = await formClient(app.http).request('POST', '/console/sign-in', { _csrf: stolen, email: user.email, password: PASSWORD });
    // status only: an HTML page (what it says is checked where it matters)
    assert.equal(res.statusCode, 403);
  });

  test('suspending a signed-in user ends their session at their next request; it stays ended after reactivation', async () => {
    const user = await staffWithPassword();
    const browser = formClient(app.http);
    await signIn(browser, user.email, PASSWORD);
    assert.equal((await home(browser)).statusCode, 200);
    const suspended = await app.http.inject({ method: 'POST', url: `/api/v1/users/${user.id}/suspend`, headers: bearer(admin) });
    assert.equal(suspended.statusCode, 200, suspended.body);
    assert.equal((await home(browser)).statusCode, 303);
    // status only: an HTML page (what it says is checked where it matters)
    assert.equal((await signIn(formClient(app.http), user.email, PASSWORD)).statusCode, 401, 'a suspended user cannot sign in');
    await app.http.inject({ method: 'POST', url: `/api/v1/users/${user.id}/reactivate`, headers: bearer(admin) });
    assert.equal((await home(browser)).statusCode, 303, 'the old session does not come back');
  });

  test('a user sees their sessions and ends one; changing the password ends the others', async () => {
    const user = await staffWithPassword();
    const laptop = formClient(app.http);
    const phone = formClient(app.http);
    const tablet = formClient(app.http);
    for (const browser of [laptop, phone, tablet]) await signIn(browser, user.email, PASSWORD);
    const page = await account(laptop);
    assert.equal(page.statusCode, 200, page.body);
    const ends = [...page.body.matchAll(/action="\/console\/sessions\/(\d+)\/end"/g)].map((m) => m[1]);
    assert.equal(ends.length, 2, 'the two other sessions can be ended, not this one');
    const ended = await laptop.request('POST', `/console/sessions/${ends[0]}/end`, { _csrf: laptop.csrfOf(page.body) });
    assert.equal(ended.statusCode, 303);
    assert.equal(ended.headers.location, '/console/account', 'back to the account page');
    assert.equal(await openSessions(user.id), 2);

    const weak = await laptop.request('POST', '/console/password', {
      _csrf: laptop.csrfOf(page.body),
      current_password: PASSWORD,
      password: 'short',
      password_confirmation: 'short',
    });
    // status only: an HTML page (what it says is checked where it matters)
    assert.equal(weak.statusCode, 422);
    assert.match(weak.body, /12 characters/);
    const next = 'lighthouse-keeper-tea-1852';
    const changed = await laptop.request('POST', '/console/password', {
      _csrf: laptop.csrfOf(page.body),
      current_password: PASSWORD,
      password: next,
      password_confirmation: next,
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal((await home(laptop)).statusCode, 200, 'this session goes on');
    assert.equal((await home(phone)).statusCode, 303);
    assert.equal((await home(tablet)).statusCode, 303);
    assert.equal((await signIn(formClient(app.http), user.email, next)).statusCode, 303);
  });

  test('academy admin users sign-out ID ends every session of the user', async () => {
    const user = await staffWithPassword();
    const browser = formClient(app.http);
    await signIn(browser, user.email, PASSWORD);
    const env = { DATABASE_URL: app.platform.database.url, ACADEMY_DATA_DIR: app.platform.config.dataDir };
    const result = await runCli(['--json', 'admin', 'users', 'sign-out', String(user.id)], env);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { user_id: user.id, sessions_ended: 1 });
    assert.equal((await home(browser)).statusCode, 303);
  });

  test('the first administrator: `users create --activate-with-link` prints a link that sets a password and signs in, once', async () => {
    const env = { DATABASE_URL: app.platform.database.url, ACADEMY_DATA_DIR: app.platform.config.dataDir };
    const email = `first.${unique('f').toLowerCase()}@example.org`;
    const data = JSON.stringify({ name: 'First Administrator', email, roles: ['administrator'] });
    const result = await runCli(['--json', 'admin', 'users', 'create', '--data', data, '--activate-with-link'], env);
    assert.equal(result.code, 0, result.stderr);
    const created = JSON.parse(result.stdout);
    assert.equal(created.status, 'active');
    assert.deepEqual([...created.effective_permissions].sort(), [...PERMISSION_NAMES].sort(), 'an administrator may do everything');
    const link = new URL(created.sign_in_link);
    assert.equal(link.pathname, '/console/password/reset');
    const page = `${link.pathname}${link.search}`;
    const token = link.searchParams.get('token') ?? '';

    const browser = formClient(app.http);
    const done = await browser.submit(page, '/console/password/reset', { token, password: PASSWORD, password_confirmation: PASSWORD });
    assert.equal(done.statusCode, 303, done.body);
    assert.equal(done.headers.location, '/console');
    const own = await browser.request('GET', '/console/account');
    assert.ok(own.body.includes('Signed in as <strong>First Administrator</strong>'), own.body.slice(0, 500));
    // status only: an HTML page saying the link no longer works
    assert.equal((await formClient(app.http).request('GET', page)).statusCode, 404, 'the link works once');
    const other = formClient(app.http);
    assert.equal((await signIn(other, email, PASSWORD)).statusCode, 303, 'the password chosen signs in');

    const draft = await runCli(
      [
        '--json',
        'admin',
        '--as',
        String(created.id),
        'users',
        'create',
        '--data',
        JSON.stringify({ name: 'X', email: `x.${unique('x').toLowerCase()}@example.org` }),
        '--activate-with-link',
      ],
      env,
    );
    assert.notEqual(draft.code, 0, 'only the administration itself creates an active user');
    assert.match(draft.stderr, /permission_denied/);
  });

  test('the database holds neither the password nor the session id', async () => {
    const user = await staffWithPassword();
    const browser = formClient(app.http);
    await signIn(browser, user.email, PASSWORD);
    const id = browser.jar.get('academy_session') as string;
    const row = await app.platform.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    assert.match(row.password_hash ?? '', /^scrypt\$/);
    assert.ok(!(row.password_hash ?? '').includes(PASSWORD));
    const sessions = await app.platform.database.db.selectFrom('staff_sessions').selectAll().where('user_id', '=', user.id).execute();
    assert.equal(sessions.length, 1);
    assert.equal(sessions[0]?.id_hash, hashSecret(id));
    assert.ok(!JSON.stringify(sessions).includes(id));
  });
});
