// The session and enrolment pages of the console in a real headless Chromium: an administrator
// creates a session through its form (its errors first), enrols students (the preview first), cancels
// and completes enrolments and adds a meeting, an assessment and a resource. Every page is checked with
// axe (no serious or critical violation) at 1280 and 375 px, where the page itself must not scroll
// sideways; nothing is refused by the CSP or missing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { operatorContext } from '../../src/platform/context.ts';
import { checkPage } from '../support/axe.ts';
import { BROWSER_JOURNEY_MS, launchChromium, skipWithoutChromium } from '../support/chromium.ts';
import { STAFF_PASSWORD, signedInStaff } from '../support/console.ts';
import { fixtures, unique } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';

describe('the session and enrolment pages in a browser', { skip: skipWithoutChromium }, () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let origin: string;
  const problems: string[] = [];
  const tag = unique('webses')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
  const slug = `${tag}-course`;
  const students: { id: number; name: string; email: string }[] = [];

  before(async () => {
    app = await createTestApp();
    origin = (await app.http.listen({ port: 0, host: '127.0.0.1' })).replace('[::1]', '127.0.0.1');
    browser = await launchChromium();
    // axe needs a page of a context of our own (browser.newPage's is closed with the page).
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => /Refused to|Content Security Policy/.test(message.text()) && problems.push(message.text()));
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'document' && response.status() >= 400)
        problems.push(`${response.status()} ${response.url()}`);
    });
    const ctx = operatorContext(app.platform);
    await app.services.organization.update(ctx, { timezone: 'Europe/Berlin' });
    await app.services.courses.create(ctx, {
      slug,
      title: `${tag} Project management with a title long enough to wrap on a phone`,
      code: `${tag}-PM`,
      price: '450.00',
      currency: 'EUR',
      language: 'en',
    });
    for (const name of ['Ada Lovelace', 'Brook Okafor', 'Cyd Charisse']) {
      const email = `${name.split(' ')[0]?.toLowerCase()}.${tag}@example.org`;
      const user = await fixtures(app.platform).student({ name: `${name} ${tag}`, email });
      students.push({ id: user.id, name: user.name, email });
    }
  });

  after(async () => {
    await browser?.close();
  });

  test('an administrator creates a session, enrols, cancels and completes; every page passes axe', {
    timeout: BROWSER_JOURNEY_MS,
  }, async () => {
    const { user } = await signedInStaff(app, ['administrator'], unique('Administrator'));
    await page.goto(`${origin}/console/courses/${slug}/sessions`);
    await page.waitForURL(/\/console\/sign-in\?next=/);
    await page.fill('#f-email', user.email);
    await page.fill('#f-password', STAFF_PASSWORD);
    await page.click('form[action="/console/sign-in"] button[type=submit]');
    await page.waitForURL(`${origin}/console/courses/${slug}/sessions`);
    await checkPage(page, 'a course without sessions');

    await page.click('text=New session');
    await page.waitForURL(`${origin}/console/courses/${slug}/sessions/new`);
    await checkPage(page, 'the new session form');
    await page.fill('#f-name', 'Spring intake (Berlin, evenings)');
    await page.fill('#f-starts_on', '2027-04-05');
    await page.fill('#f-ends_on', '2027-04-09');
    await page.fill('#f-max_participants', 'two');
    await page.fill('#f-registration_closes_at', '2027-04-01T17:00');
    await page.selectOption('#f-workflow_state', 'open_for_registration');
    await page.click('button:has-text("Create the session")');
    assert.equal(await page.getAttribute('#f-max_participants', 'aria-invalid'), 'true');
    assert.match((await page.textContent('.error-summary')) ?? '', /The max_participants field must be a whole number/);
    assert.equal(await page.inputValue('#f-registration_closes_at'), '2027-04-01T17:00', 'what was typed is kept');
    await checkPage(page, 'the new session form with its errors');
    await page.click('.error-summary a[href="#f-max_participants"]');
    assert.equal(await page.evaluate<string | undefined>('document.activeElement?.id'), 'f-max_participants');
    await page.fill('#f-max_participants', '2');
    await page.press('#f-max_participants', 'Enter');
    await page.waitForURL(/\/sessions\/\d+\?notice=created$/);
    const sessionUrl = page.url().replace(/\?.*$/, '');
    assert.match((await page.textContent('[role=status]')) ?? '', /The session is created, open for registration\./);
    assert.match((await page.textContent('main')) ?? '', /1 Apr 2027, 17:00 CEST/);
    await checkPage(page, 'a new session’s page');

    await page.click('text=Edit the session');
    await checkPage(page, 'the session’s edit form');
    await page.goto(sessionUrl);

    // Three enrolments, each previewed first; the third waits.
    const [ada, brook, cyd] = students as [(typeof students)[number], (typeof students)[number], (typeof students)[number]];
    await page.click('text=Enrol a student');
    await checkPage(page, 'the enrol form');
    await page.fill('#f-student', tag);
    await page.press('#f-student', 'Enter');
    await page.waitForURL(/\/enrol\?student=/);
    assert.match((await page.textContent('main')) ?? '', /Choose the student/);
    await checkPage(page, 'the students to choose from');
    for (const [student, says, button] of [
      [ada, /2 seats left: .* will be confirmed\./, `Enrol ${ada.name}`],
      [brook, /1 seat left: .* will be confirmed\./, `Enrol ${brook.name}`],
      [cyd, /The session is full: .* will be waitlisted at position 1\./, `Add ${cyd.name} to the waitlist`],
    ] as const) {
      await page.goto(`${sessionUrl}/enrol`);
      await page.fill('#f-student', student.email);
      await page.press('#f-student', 'Enter');
      await page.waitForURL(/\/enrol\?student=/);
      assert.match((await page.textContent('[role=status]')) ?? '', says);
      if (student === cyd) await checkPage(page, 'the preview of a waitlisted enrolment');
      await page.click(`button:has-text("${button}")`);
      await page.waitForURL(/notice=enrolled/);
    }
    assert.match((await page.textContent('[role=status]')) ?? '', /on the waitlist, at position 1\./);
    await checkPage(page, 'a full session with its waitlist');

    await page.click(`a[aria-label="Cancel the enrolment of ${ada.name}"]`);
    assert.match((await page.textContent('main')) ?? '', /Their seat goes to .*Cyd.*, first on the waitlist/);
    await checkPage(page, 'the cancel page');
    await page.fill('#f-reason', 'Moved away');
    await page.click('button:has-text("Cancel the enrolment")');
    await page.waitForURL(/notice=cancelled/);
    assert.match((await page.textContent('[role=status]')) ?? '', /Cyd Charisse .*, first on the waitlist, is promoted: confirmed\./);

    await page.click(`a[aria-label="Complete the enrolment of ${brook.name}"]`);
    await page.click('button:has-text("Record the completion")');
    assert.equal(await page.getAttribute('#f-completion_outcome', 'aria-invalid'), 'true');
    await checkPage(page, 'the completion form with its error');
    await page.selectOption('#f-completion_outcome', 'passed');
    await page.click('button:has-text("Record the completion")');
    await page.waitForURL(/notice=completed/);
    assert.match((await page.textContent('[role=status]')) ?? '', /is recorded: passed\./);
    await checkPage(page, 'a session with cancelled and completed enrolments');

    for (const [part, button, fill] of [
      ['meetings', 'Add a meeting', async () => page.fill('#f-location', 'Room 4')],
      ['assessments', 'Add an assessment', async () => page.fill('#f-title', 'Final exam')],
      [
        'resources',
        'Add a learning resource',
        async () => {
          await page.fill('#f-title', 'Slides');
          await page.fill('#f-url', 'https://example.org/s');
        },
      ],
    ] as const) {
      await page.goto(`${sessionUrl}/${part}/new`);
      await checkPage(page, `the ${part} form`);
      await fill();
      await page.click(`form[action$="/${part}"] button:has-text("${button}")`);
      await page.waitForURL(`${sessionUrl}#${part}`);
    }
    await checkPage(page, 'a session with meetings, assessments and resources');

    await page.goto(`${origin}/console/courses/${slug}/sessions`);
    assert.match((await page.textContent('main')) ?? '', /Spring intake \(Berlin, evenings\)/);
    await checkPage(page, 'a course’s sessions');

    assert.deepEqual(problems, []);
  });
});
