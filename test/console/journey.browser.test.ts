// The console's journey across roles, in a real headless Chromium, each person in a browser of their
// own: a coordinator creates a course and sends it to review, an approver approves it, the
// coordinator publishes it and opens a session of 2 seats, a registrar enrols three students (the
// third waitlisted at position 1), cancels the first (the third promoted, a webhook delivered to a
// receiver here), completes the second as passed and issues them a certificate, whose public
// verification link says it is valid. Every step is in the audit trail with its actor. Beside it,
// a viewer is refused at each action and nothing changes. UPDATE_SCREENSHOT=1 writes the console's
// screenshots in docs/ (home, a session with its waitlist on a laptop and on a phone, the approvals inbox).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { operatorContext } from '../../src/platform/context.ts';
import type { Worker } from '../../src/platform/jobs/worker.ts';
import type { Role } from '../../src/platform/permissions.ts';
import { BROWSER_JOURNEY_MS, launchChromium, skipWithoutChromium } from '../support/chromium.ts';
import { STAFF_PASSWORD } from '../support/console.ts';
import { eventually } from '../support/eventually.ts';
import { fixtures, unique } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

const screenshots = process.env.UPDATE_SCREENSHOT === '1';

describe('the console’s journey across roles', { skip: skipWithoutChromium }, () => {
  let app: TestApp;
  let browser: Browser;
  let origin: string;
  let worker: Worker;
  let receiver: Receiver;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];
  const tag = unique('trip')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
  const slug = `${tag}-pm`;

  /** A staff user holding `roles`, signed in through the sign-in page in a browser of their own. */
  async function person(roles: Role[], name: string): Promise<{ id: number; name: string; page: Page }> {
    const user = await fixtures(app.platform).staff({ name: `${name} ${tag}` });
    await app.services.users.grant(operatorContext(app.platform), user.id, { roles });
    await app.services.staffAuth.setPassword(app.platform.database.db, user.id, STAFF_PASSWORD);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`${name}: ${error.message}`));
    page.on('console', (message) => /Refused to|Content Security Policy/.test(message.text()) && problems.push(message.text()));
    await page.goto(`${origin}/console`);
    await page.fill('#f-email', user.email);
    await page.fill('#f-password', STAFF_PASSWORD);
    await page.click('form[action="/console/sign-in"] button[type=submit]');
    await page.waitForURL(`${origin}/console`);
    return { id: user.id, name: user.name, page };
  }

  const statusText = async (page: Page) => (await page.textContent('[role=status]')) ?? '';
  const snap = async (page: Page, file: string) => {
    if (screenshots) await page.screenshot({ path: path.resolve('docs', file), fullPage: false });
  };

  before(async () => {
    app = await createTestApp({ env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true' } });
    origin = (await app.http.listen({ port: 0, host: '127.0.0.1' })).replace('[::1]', '127.0.0.1');
    worker = app.platform.createWorker({ pollMs: 50 });
    await worker.start();
    browser = await launchChromium();
  });

  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await worker?.stop(2000);
  });

  test('coordinator → approver → coordinator → registrar, with a webhook and a valid certificate', {
    timeout: BROWSER_JOURNEY_MS,
  }, async () => {
    // Started in the test: a receiver closes when the test that started it ends.
    receiver = await startReceiver();
    await app.services.webhooks.create(operatorContext(app.platform), { url: `${receiver.url}/academy` });
    const students = [];
    for (const first of ['Ada', 'Brook', 'Cyd']) {
      const email = `${first.toLowerCase()}.${tag}@example.org`;
      students.push(await fixtures(app.platform).student({ name: `${first} ${tag}`, email }));
    }
    const [ada, brook, cyd] = students as [(typeof students)[number], (typeof students)[number], (typeof students)[number]];
    const coordinator = await person(['coordinator'], 'Coordinator');
    const approver = await person(['approver'], 'Approver');
    const registrar = await person(['registrar'], 'Registrar');

    // The coordinator creates the course and sends it to review.
    let page = coordinator.page;
    await page.goto(`${origin}/console/courses/new`);
    await page.fill('#f-title', `Project management ${tag}`);
    await page.fill('#f-slug', slug);
    await page.fill('#f-code', `${tag}-PM`.toUpperCase().slice(0, 40));
    await page.fill('#f-price', '450.00');
    await page.fill('#f-currency', 'EUR');
    await page.fill('#f-language', 'en');
    await page.click('button:has-text("Create the course")');
    await page.waitForURL(new RegExp(`/console/courses/${slug}`));
    await page.click('button:has-text("Send to review")');
    await page.waitForURL(/notice=moved/);
    assert.doesNotMatch(await page.innerText('main'), /\bApprove\b/, 'the coordinator is not offered Approve');

    // The approver finds it in their inbox and approves it.
    page = approver.page;
    await page.goto(`${origin}/console`);
    assert.match(await page.innerText('main'), /Approvals/);
    await snap(page, 'console-home.png');
    await page.goto(`${origin}/console/approvals`);
    assert.match(await page.innerText('main'), new RegExp(`Project management ${tag}`));
    await snap(page, 'console-approvals.png');
    await page.goto(`${origin}/console/courses/${slug}`);
    await page.click('button:has-text("Approve")');
    await page.waitForURL(/notice=moved/);
    assert.match(await statusText(page), /approved/);

    // The coordinator publishes it and opens a session of two seats.
    page = coordinator.page;
    await page.goto(`${origin}/console/courses/${slug}`);
    await page.click('button:has-text("Publish")');
    await page.waitForURL(/notice=moved/);
    await page.click('text=New session');
    await page.fill('#f-name', 'Spring intake');
    await page.fill('#f-starts_on', '2027-04-05');
    await page.fill('#f-ends_on', '2027-04-09');
    await page.fill('#f-max_participants', '2');
    await page.fill('#f-registration_closes_at', '2027-04-01T17:00');
    await page.selectOption('#f-workflow_state', 'open_for_registration');
    await page.click('button:has-text("Create the session")');
    await page.waitForURL(/\/sessions\/\d+\?notice=created$/);
    const sessionUrl = page.url().replace(/\?.*$/, '');

    // The registrar enrols three: two confirmed, the third waitlisted at 1.
    page = registrar.page;
    for (const [student, says, button] of [
      [ada, /2 seats left/, `Enrol ${ada.name}`],
      [brook, /1 seat left/, `Enrol ${brook.name}`],
      [cyd, /waitlisted at position 1/, `Add ${cyd.name} to the waitlist`],
    ] as const) {
      await page.goto(`${sessionUrl}/enrol`);
      await page.fill('#f-student', student.email);
      await page.press('#f-student', 'Enter');
      await page.waitForURL(/\/enrol\?student=/);
      assert.match(await statusText(page), says);
      await page.click(`button:has-text("${button}")`);
      await page.waitForURL(/notice=enrolled/);
    }
    assert.match(await statusText(page), /on the waitlist, at position 1\./);
    await snap(page, 'console-session-waitlist.png');
    // The same page on a phone (375 px), where it must stay usable: nothing wider than the screen.
    await page.setViewportSize({ width: 375, height: 812 });
    assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= 375, 'no sideways scroll at 375 px');
    await snap(page, 'console-session-phone.png');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Cancelling the first promotes the third; the webhook reaches the receiver.
    await page.click(`a[aria-label="Cancel the enrolment of ${ada.name}"]`);
    await page.click('button:has-text("Cancel the enrolment")');
    await page.waitForURL(/notice=cancelled/);
    assert.match(await statusText(page), new RegExp(`${cyd.name}.*, first on the waitlist, is promoted: confirmed\\.`));
    const promoted = await eventually(
      () => receiver.requests.map((r) => JSON.parse(r.body)).find((event) => event.type === 'enrollment.promoted'),
      { what: `the enrollment.promoted webhook (received: ${receiver.requests.length})`, timeoutMs: 20_000 },
    );
    assert.equal(promoted.payload.student_id, cyd.id);

    // The second completes as passed and gets a certificate, which its public link says is valid.
    await page.click(`a[aria-label="Complete the enrolment of ${brook.name}"]`);
    await page.selectOption('#f-completion_outcome', 'passed');
    await page.click('button:has-text("Record the completion")');
    await page.waitForURL(/notice=completed/);
    await page.goto(`${origin}/console/students/${brook.id}`);
    await page.click('button:has-text("Issue a certificate")');
    await page.waitForURL(/\/console\/certificates\/\d+\?notice=issued/);
    const link = (await page.getAttribute('a[href*="/certificates/verify/"]', 'href')) ?? '';
    const verified = (await (await fetch(new URL(link, origin))).json()) as { data: { status: string } };
    assert.equal(verified.data.status, 'valid', JSON.stringify(verified));

    // Every step in the audit trail, by whom, through the console.
    const events = await app.platform.database.db
      .selectFrom('audit_events')
      .select(['action', 'actor_id', 'via', 'changes'])
      .where('actor_id', 'in', [coordinator.id, approver.id, registrar.id])
      .where('action', 'not like', 'session.sign%')
      .orderBy('id')
      .execute();
    const steps = events.map((e) => `${e.action} by ${e.actor_id} via ${e.via}`);
    for (const [action, who] of [
      ['course.created', coordinator],
      ['course.transitioned', coordinator],
      ['course.transitioned', approver],
      ['session.created', coordinator],
      ['enrolment.created', registrar],
      ['enrolment.cancelled', registrar],
      ['enrolment.completed', registrar],
      ['certificate.issued', registrar],
    ] as const) {
      assert.ok(steps.includes(`${action} by ${who.id} via console`), `${action} by ${who.name} in:\n${steps.join('\n')}`);
    }
    assert.equal(steps.filter((s) => s.startsWith('enrolment.created')).length, 3);
    assert.deepEqual(problems, []);
  });

  test('a viewer is refused at each action of the journey, and nothing changes', async () => {
    const viewer = await person(['viewer'], 'Viewer');
    const { page } = viewer;
    const count = async () =>
      Number(
        (
          await app.platform.database.db
            .selectFrom('audit_events')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('action', 'not like', 'session.sign%')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const session = await app.platform.database.db
      .selectFrom('training_sessions')
      .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
      .select(['training_sessions.id', 'courses.slug'])
      .where('courses.slug', '=', slug)
      .executeTakeFirstOrThrow();
    const csrf = async (url: string) => {
      await page.goto(url);
      return (await page.getAttribute('input[name="_csrf"]', 'value')) ?? '';
    };
    const token = await csrf(`${origin}/console/courses/${slug}`);
    // What the buttons would send, sent by the viewer's browser with its own session and token.
    for (const [action, form] of [
      ['/console/courses', { title: 'Nope', slug: `${tag}-nope`, code: 'NOPE', price: '1.00', currency: 'EUR', language: 'en' }],
      [`/console/courses/${slug}/transition`, { to_state: 'archived' }],
      [`/console/courses/${slug}/sessions`, { name: 'Nope', starts_on: '2027-05-01', ends_on: '2027-05-02', max_participants: '3' }],
      [`/console/courses/${slug}/sessions/${session.id}/enrolments`, { student_id: '1' }],
      ['/console/certificates', { enrolment_id: '1' }],
    ] as const) {
      const answer = await page.request.post(`${origin}${action}`, { form: { _csrf: token, ...form } });
      assert.equal(answer.status(), 403, `${action}: ${answer.status()}`);
      assert.match(await answer.text(), /This needs the [a-z. ]+ permission/);
    }
    assert.equal(await count(), before, 'nothing changed');
  });
});
