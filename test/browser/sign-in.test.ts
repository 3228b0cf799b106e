// Staff sign-in in a real headless Chromium, as a new staff member meets it: the invitation email's
// link, a password chosen on its page, the console, sign-out and sign-in again. Then what a guesser
// sees: a wrong password and an unknown email give the same bytes, in the same time.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Worker } from '../../src/platform/jobs/worker.ts';
import { launchChromium, skipWithoutChromium } from '../support/chromium.ts';
import { eventually } from '../support/eventually.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { formClient } from '../support/forms.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';
import { type SmtpServer, startSmtpServer } from '../support/smtp.ts';

const PASSWORD = 'violet-harbour-compass-1843';

describe('staff sign-in in a browser', { skip: skipWithoutChromium }, () => {
  let app: TestApp;
  let make: Fixtures;
  let smtp: SmtpServer;
  let worker: Worker;
  let browser: Browser;
  let page: Page;
  let origin: string;

  before(async () => {
    smtp = await startSmtpServer();
    app = await createTestApp({ env: { SMTP_URL: smtp.url } });
    make = fixtures(app.platform);
    origin = (await app.http.listen({ port: 0, host: '127.0.0.1' })).replace('[::1]', '127.0.0.1');
    worker = app.platform.createWorker({ pollMs: 50 });
    await worker.start();
    browser = await launchChromium();
    page = await browser.newPage();
  });

  after(async () => {
    await browser?.close();
    await worker?.stop(2000);
  });

  test('invited → accepts and chooses a password → signed in → signs out → signs in again', async () => {
    const admin = await app.token(['users:read', 'users:write']);
    const email = `katherine.${unique('k').toLowerCase()}@example.org`;
    const created = await app.http.inject({
      method: 'POST',
      url: '/api/v1/users',
      headers: bearer(admin),
      payload: { name: 'Katherine Johnson', email },
    });
    const id = created.json().data.id as number;
    await app.http.inject({ method: 'POST', url: `/api/v1/users/${id}/invite`, headers: bearer(admin) });
    const mail = await eventually(() => smtp.messages.find((m) => m.to.includes(email)), { what: 'the invitation' });
    const link = new URL(mail.mail.text?.match(/https?:\/\/\S+/)?.[0] ?? '');
    // What would show a page broken: a script error, a refusal by the CSP, a stylesheet or icon not found.
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => /Refused to|Content Security Policy/.test(message.text()) && errors.push(message.text()));
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'document' && response.status() >= 400)
        errors.push(`${response.status()} ${response.url()}`);
    });

    await page.goto(`${origin}${link.pathname}${link.search}`);
    assert.match((await page.textContent('main')) ?? '', /Katherine Johnson/);
    await page.fill('#f-password', 'short');
    await page.fill('#f-password_confirmation', 'short');
    await page.click('button[type=submit]');
    assert.match((await page.textContent('#f-password-error')) ?? '', /12 characters/);
    assert.equal(await page.getAttribute('#f-password', 'aria-invalid'), 'true');

    await page.fill('#f-password', PASSWORD);
    await page.fill('#f-password_confirmation', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(`${origin}/console`);
    assert.match((await page.textContent('.masthead')) ?? '', /Katherine Johnson/, 'the console’s home, with who is signed in');
    // The name in the masthead leads to the user's own page.
    await page.click('.masthead a[href="/console/account"]');
    await page.waitForURL(`${origin}/console/account`);
    assert.match((await page.textContent('main')) ?? '', /Signed in as Katherine Johnson/);

    await page.click('text=Sign out');
    await page.waitForURL(`${origin}/console/sign-in`);
    await page.goto(`${origin}/console`);
    assert.match(page.url(), /\/console\/sign-in\?next=%2Fconsole$/, 'signed out: the console asks to sign in');

    await page.fill('#f-email', email);
    await page.fill('#f-password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(`${origin}/console`);
    assert.match((await page.textContent('.masthead')) ?? '', /Katherine Johnson/);
    assert.deepEqual(errors, [], 'no error in the page (the CSP refuses nothing it needs)');
  });

  test('a wrong password and an unknown email: byte-identical pages in the browser', async () => {
    const user = await make.staff({ name: unique('Known') });
    await app.services.staffAuth.setPassword(app.platform.database.db, user.id, PASSWORD);
    const context = await browser.newContext();
    const tab = await context.newPage();
    const attempt = async (email: string, password: string) => {
      await tab.goto(`${origin}/console/sign-in`);
      await tab.fill('#f-email', email);
      await tab.fill('#f-password', password);
      const [response] = await Promise.all([tab.waitForResponse((r) => r.request().method() === 'POST'), tab.click('button[type=submit]')]);
      return { status: response.status(), body: await response.body() };
    };
    const wrong = await attempt(user.email, 'not-the-password-at-all');
    const unknown = await attempt(`nobody.${unique('n').toLowerCase()}@example.org`, PASSWORD);
    // status only: an HTML page (what it says is checked where it matters)
    assert.equal(wrong.status, 401);
    // status only: an HTML page (what it says is checked where it matters)
    assert.equal(unknown.status, 401);
    assert.ok(wrong.body.equals(unknown.body), 'the same bytes');
    await context.close();
  });

  test('a wrong password and an unknown email take the same time: medians of 50 each within a third', async (t) => {
    // Ten known users, five wrong passwords each (the sixth would wait), against fifty unknown emails,
    // taken in turns so that the machine's other work weighs on both alike.
    const known = [];
    for (let i = 0; i < 10; i++) {
      const user = await make.staff({ name: unique('Timed') });
      await app.services.staffAuth.setPassword(app.platform.database.db, user.id, PASSWORD);
      known.push(user.email);
    }
    const client = formClient(app.http);
    const csrf = await client.csrf();
    let n = 0;
    const time = async (email: string) => {
      // Each from an address of its own: the per-address limit is not what is measured.
      const from = `10.77.${Math.floor(n / 250)}.${(n++ % 250) + 1}`;
      const started = performance.now();
      const res = await client.request('POST', '/console/sign-in', { _csrf: csrf, email, password: 'wrong-password-every-time' }, from);
      const elapsed = performance.now() - started;
      // status only: an HTML page (what it says is checked where it matters)
      assert.equal(res.statusCode, 401, res.body);
      return elapsed;
    };
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < 50; i++) {
      knownTimes.push(await time(known[i % 10] as string));
      unknownTimes.push(await time(`stranger.${i}.${unique('s').toLowerCase()}@example.org`));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
    const [a, b] = [median(knownTimes), median(unknownTimes)];
    t.diagnostic(`median of 50: known email ${a.toFixed(1)} ms, unknown email ${b.toFixed(1)} ms`);
    // Within a third: without the password hash an unknown email costs, the two differ by more than
    // half (a hash is most of a refusal's time). The machine's other work moves a median: beside
    // both suites and Chromium on two slow cores they were 384 and 302 ms apart by 21%.
    assert.ok(Math.abs(a - b) / Math.max(a, b) < 1 / 3, `medians: known ${a.toFixed(1)} ms, unknown ${b.toFixed(1)} ms`);
  });
});
