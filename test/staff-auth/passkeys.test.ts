// Passkeys in a real headless Chromium with its virtual authenticator (the DevTools protocol's
// WebAuthn domain: a platform authenticator with user verification, as a laptop's fingerprint reader
// is): one added from the user's own page and used to sign in without a password, one made when an
// invitation is accepted, and the refusals (removed, suspended, a challenge used twice).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import type { Worker } from '../../src/platform/jobs/worker.ts';
import { launchChromium, skipWithoutChromium } from '../support/chromium.ts';
import { eventually } from '../support/eventually.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';
import { type SmtpServer, startSmtpServer } from '../support/smtp.ts';

const PASSWORD = 'amber-lighthouse-orchard-2291';

describe('passkeys in a browser', { skip: skipWithoutChromium }, () => {
  let app: TestApp;
  let make: Fixtures;
  let browser: Browser;
  let origin: string;
  let smtp: SmtpServer;
  let worker: Worker;

  /** A browser profile of its own with a virtual authenticator (its passkeys are the profile's). */
  async function device(): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession; authenticatorId: string; errors: string[] }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    // What would show a page broken: a script error, a refusal by the CSP, an asset not found.
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => /Refused to|Content Security Policy/.test(message.text()) && errors.push(message.text()));
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (type !== 'document' && type !== 'fetch' && response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
    });
    return { context, page, cdp, authenticatorId, errors };
  }

  const staffWithPassword = async (name: string) => {
    const user = await make.staff({ name });
    await app.services.staffAuth.setPassword(app.platform.database.db, user.id, PASSWORD);
    return user;
  };
  const passkeysOf = (userId: number) =>
    app.platform.database.db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).execute();
  const lastSession = (userId: number) =>
    app.platform.database.db
      .selectFrom('staff_sessions')
      .select(['method', 'ended_at'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
  /** Signs in with the password, to the user's own page (where passkeys are added). */
  const signInWithPassword = async (page: Page, email: string) => {
    await page.goto(`${origin}/console/sign-in?next=${encodeURIComponent('/console/account')}`);
    await page.fill('#f-email', email);
    await page.fill('#f-password', PASSWORD);
    await page.click('form[action="/console/sign-in"] button[type=submit]');
    await page.waitForURL(`${origin}/console/account`);
  };
  const signInWithPasskey = async (page: Page) => {
    await page.goto(`${origin}/console/sign-in`);
    await page.click('text=Sign in with a passkey');
  };

  before(async () => {
    smtp = await startSmtpServer();
    app = await createTestApp({ env: { SMTP_URL: smtp.url } });
    make = fixtures(app.platform);
    worker = app.platform.createWorker({ pollMs: 50 });
    await worker.start();
    // A passkey belongs to a domain name, never to an IP address: the pages are opened as localhost.
    const listening = new URL(await app.http.listen({ port: 0, host: '127.0.0.1' }));
    origin = `http://localhost:${listening.port}`;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await worker?.stop(2000);
  });

  test('a passkey added on the user’s page signs them in without a password; removed, it no longer does', async () => {
    const name = unique('Grace Hopper');
    const user = await staffWithPassword(name);
    const { context, page, cdp, authenticatorId, errors } = await device();

    await signInWithPassword(page, user.email);
    assert.match((await page.textContent('main')) ?? '', /You have no passkey yet/);

    await page.fill('#f-name', 'Work laptop');
    await page.click('text=Add a passkey');
    await page.waitForSelector('td:text("Work laptop")');
    const kept = await passkeysOf(user.id);
    assert.equal(kept.length, 1);
    assert.equal(kept[0]?.name, 'Work laptop');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    assert.equal(credentials.length, 1);
    assert.equal(credentials[0]?.isResidentCredential, true, 'a discoverable credential');
    assert.equal(Buffer.from(credentials[0]?.credentialId ?? '', 'base64').toString('base64url'), kept[0]?.credential_id);

    await page.click('text=Sign out');
    await page.waitForURL(`${origin}/console/sign-in`);
    await signInWithPasskey(page);
    await page.waitForURL(`${origin}/console`);
    assert.match((await page.textContent('.masthead')) ?? '', new RegExp(name));
    assert.equal((await lastSession(user.id)).method, 'passkey');
    assert.ok((await passkeysOf(user.id))[0]?.last_used_at, 'its last use is kept');
    const events = await app.platform.database.db
      .selectFrom('audit_events')
      .select(['action', 'via', 'changes'])
      .where('subject_id', '=', user.id)
      .where('action', 'in', ['passkey.registered', 'session.signed_in'])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      events.map((e) => [e.action, e.via]),
      [
        ['session.signed_in', 'console'],
        ['passkey.registered', 'console'],
        ['session.signed_in', 'console'],
      ],
    );
    assert.match(String(events[2]?.changes), /passkey/);

    await page.goto(`${origin}/console/account`);
    assert.match((await page.textContent('main')) ?? '', new RegExp(`Signed in as ${name}`));
    await page.click('text=Remove');
    await page.waitForSelector('text=You have no passkey yet');
    assert.equal((await passkeysOf(user.id)).length, 0);
    await page.click('text=Sign out');
    await page.waitForURL(`${origin}/console/sign-in`);
    await signInWithPasskey(page);
    await page.waitForSelector('text=That passkey cannot sign in here');
    assert.match(page.url(), /\/console\/sign-in$/, 'not signed in');
    assert.deepEqual(errors, [], 'no error in the page (the CSP refuses nothing it needs)');
    await context.close();
  });

  test('an invitation accepted with a passkey: the user is active, signed in, and signs in with it again', async () => {
    const admin = await app.token(['users:read', 'users:write']);
    const email = `ada.${unique('a').toLowerCase()}@example.org`;
    const created = await app.http.inject({
      method: 'POST',
      url: '/api/v1/users',
      headers: bearer(admin),
      payload: { name: 'Ada Lovelace', email },
    });
    const id = created.json().data.id as number;
    await app.http.inject({ method: 'POST', url: `/api/v1/users/${id}/invite`, headers: bearer(admin) });
    const mail = await eventually(() => smtp.messages.find((m) => m.to.includes(email)), { what: 'the invitation' });
    const link = new URL(mail.mail.text?.match(/https?:\/\/\S+/)?.[0] ?? '');
    const { context, page, errors } = await device();

    await page.goto(`${origin}${link.pathname}${link.search}`);
    await page.click('text=Activate with a passkey');
    await page.waitForURL(`${origin}/console`);
    assert.match((await page.textContent('.masthead')) ?? '', /Ada Lovelace/);
    const user = await app.platform.database.db
      .selectFrom('users')
      .select(['status', 'password_hash'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(user.status, 'active');
    assert.equal(user.password_hash, null, 'no password was chosen');
    assert.equal((await passkeysOf(id)).length, 1);

    await page.click('text=Sign out');
    await page.waitForURL(`${origin}/console/sign-in`);
    await signInWithPasskey(page);
    await page.waitForURL(`${origin}/console`);
    assert.equal((await lastSession(id)).method, 'passkey');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('a suspended user’s passkey does not sign in; a challenge works once', async () => {
    const user = await staffWithPassword(unique('Suspended'));
    const { context, page } = await device();
    await signInWithPassword(page, user.email);
    await page.click('text=Add a passkey');
    await page.waitForSelector('td:text("Passkey")');

    // The browser's own answer, sent twice: the second finds its challenge used.
    await page.click('text=Sign out');
    await page.waitForURL(`${origin}/console/sign-in`);
    const answers: { body: string; headers: Record<string, string> }[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/console/sign-in/passkey')) answers.push({ body: request.postData() ?? '', headers: request.headers() });
    });
    await signInWithPasskey(page);
    await page.waitForURL(`${origin}/console`);
    const [first] = answers;
    assert.ok(first);
    const replayed = await page.request.post(`${origin}/console/sign-in/passkey`, {
      data: first.body,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(replayed.status(), 401);
    assert.match((await replayed.json()).message, /cannot sign in/);

    await page.click('text=Sign out');
    await page.waitForURL(`${origin}/console/sign-in`);
    const suspended = await app.http.inject({
      method: 'POST',
      url: `/api/v1/users/${user.id}/suspend`,
      headers: bearer(await app.token(['users:write'])),
    });
    assert.equal(suspended.statusCode, 200, suspended.body);
    await signInWithPasskey(page);
    await page.waitForSelector('text=That passkey cannot sign in here');
    assert.match(page.url(), /\/console\/sign-in$/);
    await context.close();
  });
});
