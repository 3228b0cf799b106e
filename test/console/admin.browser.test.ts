// The console's home, staff, operations and settings pages in a real headless Chromium, as an
// administrator meets them: signed in through the sign-in page, a staff member invited through the
// form (its errors first), a webhook endpoint and a token created (their secrets on the answer), a task
// run now, the time zone changed. Every page is checked with axe (no serious or critical violation)
// at 1280 px and at 375 px, where the page itself must not scroll sideways; nothing is refused by the
// CSP or missing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { operatorContext } from '../../src/platform/context.ts';
import { addDays, localDate } from '../../src/platform/time.ts';
import { checkPage } from '../support/axe.ts';
import { BROWSER_JOURNEY_MS, launchChromium, skipWithoutChromium } from '../support/chromium.ts';
import { STAFF_PASSWORD, signedInStaff } from '../support/console.ts';
import { fixtures, unique } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';

describe('the console’s administration in a browser', { skip: skipWithoutChromium }, () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let origin: string;
  const problems: string[] = [];
  const tag = unique('adm')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');

  before(async () => {
    app = await createTestApp({ env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true' } });
    origin = (await app.http.listen({ port: 0, host: '127.0.0.1' })).replace('[::1]', '127.0.0.1');
    browser = await launchChromium();
    // axe needs a page of a context of our own (browser.newPage's is closed with the page).
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    // What would show a page broken: a script error, a refusal by the CSP, a stylesheet or icon not found.
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => /Refused to|Content Security Policy/.test(message.text()) && problems.push(message.text()));
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'document' && response.status() >= 400)
        problems.push(`${response.status()} ${response.url()}`);
    });
    // Something on every page: a session this week with a waitlist, a failed message and delivery, a job.
    const make = fixtures(app.platform);
    const today = localDate(app.platform.clock.now(), (await app.services.organization.get(operatorContext(app.platform))).timezone);
    const course = await make.course({ title: `${tag} A course whose title is long enough to wrap on a phone’s narrow screen` });
    await make.session({
      course_id: course.id,
      name: 'Evening intake (Lisbon)',
      starts_on: addDays(today, 2),
      ends_on: addDays(today, 30),
      max_participants: 12,
      confirmed_count: 12,
      waitlisted_count: 3,
    });
    await make.integrationMessage({
      status: 'failed',
      attempts: 5,
      last_error: 'HTTP 503 from https://crm.example.org/a/very/long/path/inbox',
    });
    await make.webhookDelivery({ status: 'failed', completed_at: new Date().toISOString(), last_status_code: 500 });
    await make.job({ name: 'system.noop' });
  });

  after(async () => {
    await browser?.close();
  });

  // Under load each axe pass takes seconds: each part of the journey is a test of its own, in turn, on one page.
  const slow = { timeout: BROWSER_JOURNEY_MS };
  let user: { id: number; name: string; email: string };

  test('an administrator signs in to the home, then invites a staff member; every page passes axe', slow, async () => {
    ({ user } = await signedInStaff(app, ['administrator'], unique('Administrator')));
    await page.goto(`${origin}/console`);
    await page.waitForURL(/\/console\/sign-in\?next=/);
    await page.fill('#f-email', user.email);
    await page.fill('#f-password', STAFF_PASSWORD);
    await page.click('form[action="/console/sign-in"] button[type=submit]');
    await page.waitForURL(`${origin}/console`);
    assert.match((await page.textContent('main')) ?? '', /Evening intake \(Lisbon\)/);
    await checkPage(page, 'the home');

    // Staff: the list, the invitation form with its errors, then a new member's page.
    await page.click('.sections a[href="/console/staff"]');
    await page.waitForURL(`${origin}/console/staff`);
    await checkPage(page, 'the staff');
    await page.click('text=Invite a staff member');
    await page.waitForURL(`${origin}/console/staff/new`);
    await checkPage(page, 'the invitation form');
    await page.fill('#f-name', 'Mary Jackson');
    await page.fill('#f-email', 'not an address');
    await page.click('button:has-text("Create and invite")');
    assert.equal(await page.getAttribute('#f-email', 'aria-invalid'), 'true');
    await checkPage(page, 'the invitation form with its errors');
    await page.fill('#f-email', `${tag}.mary@example.org`);
    await page.check('input[name="role:coordinator"]');
    await page.click('button:has-text("Create and invite")');
    await page.waitForURL(/\/console\/staff\/\d+\?notice=invited$/);
    assert.match((await page.textContent('[role=status]')) ?? '', /invitation is on its way/);
    await checkPage(page, 'a staff member’s page');
    await page.goto(`${origin}/console/staff/${user.id}`);
    assert.match((await page.textContent('main')) ?? '', /Sign out everywhere/);
    await checkPage(page, 'a staff member with a session');
  });

  test('operations: tasks and the queue, a task run now, the messages, health', slow, async () => {
    await page.click('.sections a[href="/console/operations"]');
    await page.waitForURL(`${origin}/console/operations`);
    assert.match((await page.textContent('main')) ?? '', /system\.noop/);
    await checkPage(page, 'the tasks and the job queue');
    await page.click('main table a >> nth=0');
    await page.waitForURL(/\/console\/operations\/tasks\/\d+$/);
    await page.click('button:has-text("Run now")');
    await page.waitForURL(/\?notice=queued$/);
    await checkPage(page, 'a task with a run');
    await page.goto(`${origin}/console/operations/messages`);
    assert.match((await page.textContent('main')) ?? '', /HTTP 503/);
    await checkPage(page, 'the failed messages');
    await page.goto(`${origin}/console/operations/health`);
    await checkPage(page, 'the health checks');
  });

  test('a webhook endpoint and a token: their secrets on the answer, never again', slow, async () => {
    await page.goto(`${origin}/console/operations/webhooks`);
    await checkPage(page, 'the webhooks');
    await page.fill('#f-url', `http://127.0.0.1:9/${tag}/receive`);
    await page.check('input[name="event:course.published"]');
    await page.click('button:has-text("Create the endpoint")');
    await page.waitForSelector('text=Endpoint created');
    const secret = await page.inputValue('#f-secret');
    assert.match(secret, /^whsec_/);
    await checkPage(page, 'a new endpoint’s secret');
    await page.click('text=Go to the endpoint');
    await page.waitForURL(/\/console\/operations\/webhooks\/\d+$/);
    await page.click('button:has-text("Send a test event")');
    await page.waitForURL(/\?notice=tested$/);
    assert.ok(!(await page.content()).includes(secret), 'the secret is not shown again');
    await checkPage(page, 'an endpoint with its deliveries');

    // A token: the form, the token on the answer, the list.
    await page.goto(`${origin}/console/operations/tokens`);
    await checkPage(page, 'the tokens');
    await page.fill('#f-name', `${tag}-sync`);
    await page.check('input[name="scope:courses:read"]');
    await page.selectOption('#f-user_id', String(user.id));
    await page.click('button:has-text("Create the token")');
    await page.waitForSelector('text=Token created');
    const token = await page.inputValue('#f-secret');
    assert.match(token, /^acd_/);
    await checkPage(page, 'a new token');
    await page.goto(`${origin}/console/operations/tokens`);
    assert.ok(!(await page.content()).includes(token), 'the token is not shown again');
    await checkPage(page, 'the tokens with one');
  });

  test('settings: the time zone changed, the home then shows times in it; the account page', slow, async () => {
    await page.click('.sections a[href="/console/settings"]');
    await page.waitForURL(`${origin}/console/settings`);
    await checkPage(page, 'the settings');
    await page.fill('#f-address-country', 'pt');
    await page.click('button:has-text("Save the settings")');
    assert.equal(await page.getAttribute('#f-address-country', 'aria-invalid'), 'true');
    await checkPage(page, 'the settings with their errors');
    await page.fill('#f-address-country', 'PT');
    await page.selectOption('#f-timezone', 'Asia/Tokyo');
    await page.click('button:has-text("Save the settings")');
    await page.waitForURL(/\/console\/settings\?notice=saved$/);
    await page.click('.sections a[href="/console"]');
    await page.waitForURL(`${origin}/console`);
    assert.match((await page.textContent('main time')) ?? '', /GMT\+9/);

    // The account page, from the name in the masthead.
    await page.click('.masthead a[href="/console/account"]');
    await page.waitForURL(`${origin}/console/account`);
    assert.match((await page.textContent('main')) ?? '', /Your sessions/);

    assert.deepEqual(problems, []);
  });

  test('a viewer sees the settings and tokens without their buttons, at 375 px', slow, async () => {
    const viewer = await fixtures(app.platform).staff({ name: unique('Viewer') });
    await app.services.users.grant(operatorContext(app.platform), viewer.id, { roles: ['viewer'] });
    await app.services.staffAuth.setPassword(app.platform.database.db, viewer.id, STAFF_PASSWORD);
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const phone = await context.newPage();
    try {
      await phone.goto(`${origin}/console/sign-in?next=${encodeURIComponent('/console/settings')}`);
      await phone.fill('#f-email', viewer.email);
      await phone.fill('#f-password', STAFF_PASSWORD);
      await phone.click('form[action="/console/sign-in"] button[type=submit]');
      await phone.waitForURL(`${origin}/console/settings`);
      assert.match((await phone.textContent('main')) ?? '', /needs the operations\.manage permission/);
      assert.equal(await phone.isDisabled('#f-name'), true, 'the fields cannot be changed');
      await checkPage(phone, 'the settings for a viewer');
      await phone.goto(`${origin}/console/operations/tokens`);
      assert.equal(await phone.locator('button:has-text("Revoke")').count(), 0);
      await checkPage(phone, 'the tokens for a viewer');
    } finally {
      await context.close();
    }
  });
});
