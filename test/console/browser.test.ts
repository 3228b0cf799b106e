// The console's pages in a real headless Chromium, as staff meet them: signed in through the sign-in
// page, a course created through its form (its errors first) and sent to review by its button. Every
// page is checked with axe (no serious or critical violation) at a laptop's width and at 375 px,
// where the page itself must not scroll sideways; nothing is refused by the CSP or missing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { operatorContext } from '../../src/platform/context.ts';
import { checkPage as checkAt, violations as violationsOf } from '../support/axe.ts';
import { launchChromium, skipWithoutChromium } from '../support/chromium.ts';
import { STAFF_PASSWORD, signedInStaff } from '../support/console.ts';
import { fixtures, unique } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';

describe('the console in a browser', { skip: skipWithoutChromium }, () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let origin: string;
  const problems: string[] = [];
  const tag = unique('web')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');

  before(async () => {
    app = await createTestApp();
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
    // A course with a session, so that the pages show tables, and a long title the narrow screen must wrap.
    const ctx = operatorContext(app.platform);
    await app.services.courses.create(ctx, {
      slug: `${tag}-existing`,
      title: `${tag} Existing course with a rather long title that a phone must wrap onto several lines`,
      code: `${tag}-E1`,
      price: '1250.00',
      currency: 'EUR',
      language: 'en',
    });
    await app.services.sessions.create(ctx, {
      course: `${tag}-existing`,
      name: 'January intake (Berlin, evenings)',
      max_participants: 12,
      starts_on: '2027-01-11',
      ends_on: '2027-03-29',
    });
  });

  after(async () => {
    await browser?.close();
  });

  test('an administrator signs in, creates a course through the form and sends it to review; every page passes axe', async () => {
    const { user } = await signedInStaff(app, ['administrator'], unique('Administrator'));
    await page.goto(`${origin}/console/courses`);
    await page.waitForURL(/\/console\/sign-in\?next=/);
    await page.fill('#f-email', user.email);
    await page.fill('#f-password', STAFF_PASSWORD);
    await page.click('form[action="/console/sign-in"] button[type=submit]');
    await page.waitForURL(`${origin}/console/courses`);
    assert.match((await page.textContent('.masthead')) ?? '', new RegExp(user.name));
    await checkAt(page, 'the catalogue');

    await page.click('text=New course');
    await page.waitForURL(`${origin}/console/courses/new`);
    await checkAt(page, 'the new course form');
    await page.fill('#f-slug', 'Not A Slug');
    await page.click('button:has-text("Create the course")');
    assert.equal(await page.getAttribute('#f-slug', 'aria-invalid'), 'true');
    assert.match((await page.textContent('.error-summary')) ?? '', /The title field must not be empty/);
    assert.equal(await page.inputValue('#f-slug'), 'Not A Slug', 'what was typed is kept');
    await checkAt(page, 'the new course form with its errors');

    await page.click('.error-summary a[href="#f-slug"]');
    assert.equal(await page.evaluate<string | undefined>('document.activeElement?.id'), 'f-slug', 'the summary’s link moves to the field');
    await page.fill('#f-title', 'Data Literacy');
    await page.fill('#f-slug', `${tag}-data-literacy`);
    await page.fill('#f-code', `${tag}-DL1`);
    await page.fill('#f-price', '300.00');
    await page.fill('#f-description', 'Reading charts <b>critically</b>.');
    await page.press('#f-price', 'Enter');
    await page.waitForURL(`${origin}/console/courses/${tag}-data-literacy?notice=created`);
    assert.match((await page.textContent('main')) ?? '', /Reading charts <b>critically<\/b>\./, 'text, never markup');
    await checkAt(page, 'a new course’s page');

    await page.click('button:has-text("Send to review")');
    await page.waitForURL(`${origin}/console/courses/${tag}-data-literacy?notice=moved`);
    assert.match((await page.textContent('[role=status]')) ?? '', /The course is now in review\./);

    await page.goto(`${origin}/console/courses/${tag}-existing`);
    assert.match((await page.textContent('main')) ?? '', /January intake \(Berlin, evenings\)/);
    await checkAt(page, 'a course with a session');

    await page.goto(`${origin}/console/courses?status=review`);
    assert.match((await page.textContent('main')) ?? '', /Data Literacy/);
    await page.goto(`${origin}/console/courses?q=nothing-like-this`);
    await checkAt(page, 'an empty list');

    await page.goto(`${origin}/console/audit`);
    assert.match((await page.textContent('main')) ?? '', /course\.transitioned/);
    await checkAt(page, 'the audit trail');

    await page.fill('#site-search', tag);
    await page.press('#site-search', 'Enter');
    await page.waitForURL(/\/console\/search\?q=/);
    assert.match((await page.textContent('main')) ?? '', /Data Literacy/);
    await checkAt(page, 'the search');

    const missing = await page.goto(`${origin}/console/courses/no-such-course`);
    assert.equal(missing?.status(), 404);
    await checkAt(page, 'a 404 page');

    await page.goto(`${origin}/console/courses`);
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate<string | undefined>('document.activeElement?.textContent?.trim()'),
      'Skip to the content',
      'the skip link comes first',
    );
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate<string | undefined>('document.activeElement?.id'), 'main');

    assert.deepEqual(problems, []);
  });

  test('a viewer’s refusal is a page in the console’s frame, accessible too', async () => {
    const viewer = await fixtures(app.platform).staff({ name: unique('Viewer') });
    await app.services.users.grant(operatorContext(app.platform), viewer.id, { roles: ['viewer'] });
    await app.services.staffAuth.setPassword(app.platform.database.db, viewer.id, STAFF_PASSWORD);
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const phone = await context.newPage();
    try {
      await phone.goto(`${origin}/console/sign-in?next=${encodeURIComponent('/console/audit')}`);
      await phone.fill('#f-email', viewer.email);
      await phone.fill('#f-password', STAFF_PASSWORD);
      const [refused] = await Promise.all([
        phone.waitForResponse((response) => response.url().endsWith('/console/audit')),
        phone.click('form[action="/console/sign-in"] button[type=submit]'),
      ]);
      assert.equal(refused.status(), 403);
      assert.match((await phone.textContent('main')) ?? '', /This needs the audit\.read permission/);
      assert.deepEqual(await violationsOf(phone), []);
      assert.ok((await phone.evaluate<number>('document.documentElement.scrollWidth')) <= 375);
    } finally {
      await context.close();
    }
  });
});
