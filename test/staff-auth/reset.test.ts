import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Worker } from '../../src/platform/jobs/worker.ts';
import { eventually } from '../support/eventually.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { type FormClient, formClient } from '../support/forms.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';
import { type SmtpServer, startSmtpServer } from '../support/smtp.ts';

const PASSWORD = 'quiet-harbour-lantern-1987';

/** Password resets by email and the invitation's password, with real mail through a local SMTP server. */
describe('password reset and invitation acceptance', () => {
  let app: TestApp;
  let make: Fixtures;
  let smtp: SmtpServer;
  let worker: Worker;
  let admin: string;

  const signIn = (browser: FormClient, email: string, password: string) =>
    browser.submit('/console/sign-in', '/console/sign-in', { email, password, next: '/console' });
  const home = (browser: FormClient) => browser.request('GET', '/console');
  const mailTo = (address: string, subject: RegExp) =>
    eventually(() => smtp.messages.find((m) => m.to.includes(address) && subject.test(m.mail.subject ?? '')), {
      what: `a mail to ${address}`,
    });
  const linkIn = (text: string | undefined) => new URL(text?.match(/https?:\/\/\S+/)?.[0] ?? '');

  before(async () => {
    smtp = await startSmtpServer();
    app = await createTestApp({ env: { SMTP_URL: smtp.url, ACADEMY_PUBLIC_URL: 'https://academy.example.org' } });
    make = fixtures(app.platform);
    admin = await app.token(['users:read', 'users:write']);
    worker = app.platform.createWorker({ pollMs: 50 });
    await worker.start();
  });
  after(() => worker.stop(2000));

  test('forgot password: the same answer for a known and an unknown email; the link works once and ends the other sessions', async () => {
    const user = await make.staff({ name: unique('Resetter') });
    await app.services.staffAuth.setPassword(app.platform.database.db, user.id, PASSWORD);
    const elsewhere = formClient(app.http);
    assert.equal((await signIn(elsewhere, user.email, PASSWORD)).statusCode, 303);

    const known = await formClient(app.http).submit('/console/password/forgot', '/console/password/forgot', { email: user.email });
    const unknown = await formClient(app.http).submit('/console/password/forgot', '/console/password/forgot', {
      email: `nobody.${unique('n').toLowerCase()}@example.org`,
    });
    assert.equal(known.statusCode, 200);
    assert.equal(known.body, unknown.body);

    const mail = await mailTo(user.email, /new password/);
    const link = linkIn(mail.mail.text);
    assert.equal(`${link.origin}${link.pathname}`, 'https://academy.example.org/console/password/reset');
    const token = link.searchParams.get('token') ?? '';
    assert.match(mail.mail.text ?? '', /works once/);

    const browser = formClient(app.http);
    const page = `/console/password/reset?token=${encodeURIComponent(token)}`;
    const weak = await browser.submit(page, '/console/password/reset', {
      token,
      password: 'password1234',
      password_confirmation: 'password1234',
    });
    // status only: an HTML page (what it says is checked where it matters)
    assert.equal(weak.statusCode, 422, 'a weak password leaves the link working');
    const next = 'copper-kettle-winter-garden-77';
    const done = await browser.submit(page, '/console/password/reset', { token, password: next, password_confirmation: next });
    assert.equal(done.statusCode, 303, done.body);
    assert.equal(done.headers.location, '/console');
    assert.match(String(done.headers['set-cookie']), /academy_session=.*Secure/, 'Secure behind an https public URL');
    assert.equal((await home(browser)).statusCode, 200, 'signed in by the reset');
    assert.equal((await home(elsewhere)).statusCode, 303, 'the other session ended');

    const again = await formClient(app.http).request('GET', page);
    assert.equal(again.statusCode, 404, 'the link works once'); // status only: an HTML page
    assert.equal((await signIn(formClient(app.http), user.email, PASSWORD)).statusCode, 401, 'the old password is gone');
    assert.equal((await signIn(formClient(app.http), user.email, next)).statusCode, 303);
    const stored = await app.platform.database.db
      .selectFrom('password_resets')
      .select('token_hash')
      .where('user_id', '=', user.id)
      .execute();
    assert.ok(stored.length > 0 && stored.every((row) => row.token_hash !== token), 'only a hash of the token is stored');
  });

  test('an invited user chooses a password, is active and signed in; a weak one leaves the link working', async () => {
    const email = `grace.${unique('g').toLowerCase()}@example.org`;
    const created = await app.http.inject({
      method: 'POST',
      url: '/api/v1/users',
      headers: bearer(admin),
      payload: { name: 'Grace Hopper', email },
    });
    const id = created.json().data.id as number;
    await app.http.inject({ method: 'POST', url: `/api/v1/users/${id}/invite`, headers: bearer(admin) });
    const token = linkIn((await mailTo(email, /invited/)).mail.text).searchParams.get('token') ?? '';
    const page = `/invitations/accept?token=${encodeURIComponent(token)}`;

    const browser = formClient(app.http);
    const named = await browser.submit(page, '/invitations/accept', {
      token,
      password: 'GraceHopper2026!',
      password_confirmation: 'GraceHopper2026!',
    });
    // status only: an HTML page (what it says is checked where it matters)
    assert.equal(named.statusCode, 422, `${JSON.stringify(named.headers)} ${named.body}`);
    assert.match(named.body, /contains your name or email/);
    const mismatch = await browser.submit(page, '/invitations/accept', {
      token,
      password: PASSWORD,
      password_confirmation: `${PASSWORD}x`,
    });
    // status only: an HTML page (what it says is checked where it matters)
    assert.equal(mismatch.statusCode, 422);
    assert.match(mismatch.body, /not the same/);
    const user = await app.http.inject({ method: 'GET', url: `/api/v1/users/${id}`, headers: bearer(admin) });
    assert.equal(user.json().data.status, 'invited', 'nothing used up');

    const accepted = await browser.submit(page, '/invitations/accept', { token, password: PASSWORD, password_confirmation: PASSWORD });
    assert.equal(accepted.statusCode, 303, accepted.body);
    const console = await home(browser);
    assert.equal(console.statusCode, 200);
    assert.ok(console.body.includes('Grace Hopper'));
    const active = await app.http.inject({ method: 'GET', url: `/api/v1/users/${id}`, headers: bearer(admin) });
    assert.equal(active.json().data.status, 'active');
    assert.equal((await signIn(formClient(app.http), email, PASSWORD)).statusCode, 303, 'the password works for the next sign-in');
  });
});
