// The students' pages, the applications import and the certificates in a real headless Chromium, as
// a registrar meets them: signed in through the sign-in page, a student created through the form
// (its errors first), a file chosen and uploaded by keyboard alone, its preview and import, a
// certificate issued and revoked. Every page is checked with axe at 1280 and 375 px (test/support/axe.ts);
// nothing is refused by the CSP or missing.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, FileChooser, Page } from 'playwright-core';
import { checkPage } from '../support/axe.ts';
import { BROWSER_JOURNEY_MS, launchChromium, skipWithoutChromium } from '../support/chromium.ts';
import { STAFF_PASSWORD, signedInStaff } from '../support/console.ts';
import { fixtures, unique } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';

describe('the students’ pages in a browser', { skip: skipWithoutChromium }, () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let origin: string;
  const problems: string[] = [];
  const tag = unique('webstu')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
  const courseSlug = `${tag}-python`;
  let passedStudent: number;

  before(async () => {
    app = await createTestApp();
    origin = (await app.http.listen({ port: 0, host: '127.0.0.1' })).replace('[::1]', '127.0.0.1');
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => /Refused to|Content Security Policy/.test(message.text()) && problems.push(message.text()));
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'document' && response.status() >= 400)
        problems.push(`${response.status()} ${response.url()}`);
    });
    const make = fixtures(app.platform);
    const course = await make.course({
      slug: courseSlug,
      title: `${tag} Python for analysts, with a title long enough to wrap on a phone`,
    });
    const session = await make.session({ course_id: course.id, name: 'January intake (Berlin, evenings)' });
    const student = await make.student(
      { name: `Mary ${tag} Somerville-Fairfax`, email: `mary.somerville.fairfax.${tag}@example.org` },
      { courseId: course.id },
    );
    passedStudent = student.id;
    await make.enrolment({
      user_id: student.id,
      session_id: session.id,
      completion_outcome: 'passed',
      completion_recorded_at: new Date().toISOString(),
    });
    await make.enrolment({ user_id: student.id, status: 'waitlisted', waitlist_position: 2, confirmed_at: null });
  });

  after(async () => {
    await browser?.close();
  });

  test('a registrar finds and creates students, imports a file chosen by keyboard, issues and revokes a certificate; every page passes axe', {
    timeout: BROWSER_JOURNEY_MS,
  }, async () => {
    const { user } = await signedInStaff(app, ['registrar'], unique('Registrar'));
    await page.goto(`${origin}/console/students`);
    await page.waitForURL(/\/console\/sign-in\?next=/);
    await page.fill('#f-email', user.email);
    await page.fill('#f-password', STAFF_PASSWORD);
    await page.click('form[action="/console/sign-in"] button[type=submit]');
    await page.waitForURL(`${origin}/console/students`);
    await checkPage(page, 'the students');

    await page.fill('#f-q', tag);
    await page.press('#f-q', 'Enter');
    await page.waitForURL(/\/console\/students\?q=/);
    assert.match((await page.textContent('main')) ?? '', /Mary .* Somerville-Fairfax/);
    await checkPage(page, 'the students, searched');

    // A new student: the errors first, then created.
    await page.click('text=New student');
    await page.waitForURL(`${origin}/console/students/new`);
    await checkPage(page, 'the new student form');
    await page.fill('#f-name', `Ada ${tag}`);
    await page.fill('#f-email', 'ada at example');
    await page.click('button:has-text("Create the student")');
    assert.equal(await page.getAttribute('#f-email', 'aria-invalid'), 'true');
    assert.equal(await page.getAttribute('#f-course', 'aria-invalid'), 'true');
    await checkPage(page, 'the new student form with its errors');
    await page.click('.error-summary a[href="#f-email"]');
    assert.equal(await page.evaluate<string | undefined>('document.activeElement?.id'), 'f-email');
    await page.fill('#f-email', `ada.${tag}@example.org`);
    await page.selectOption('#f-course', courseSlug);
    await page.check('#f-email_verified');
    await page.press('#f-email', 'Enter');
    await page.waitForURL(/\/console\/students\/\d+\?notice=created$/);
    assert.match((await page.textContent('[role=status]')) ?? '', /The student is created, with an application to/);
    await checkPage(page, 'a new student’s page');

    // A certificate for the passed enrolment: issued, shown with its verification link, revoked.
    await page.goto(`${origin}/console/students/${passedStudent}`);
    assert.match((await page.textContent('main')) ?? '', /Waitlisted \(position 2\)/);
    await checkPage(page, 'a student with enrolments');
    await page.click('button:has-text("Issue a certificate")');
    await page.waitForURL(/\/console\/certificates\/\d+\?notice=issued$/);
    assert.match((await page.textContent('main')) ?? '', /It says\s*valid: /);
    await checkPage(page, 'a certificate');
    const link = (await page.getAttribute('a[href*="/api/v1/certificates/verify/"]', 'href')) as string;
    await page.click('button:has-text("Revoke the certificate")');
    assert.equal(await page.getAttribute('#f-reason', 'aria-invalid'), 'true', 'a reason is asked for');
    await checkPage(page, 'a certificate’s revocation with its error');
    await page.fill('#f-reason', 'Issued to the wrong intake.');
    await page.click('button:has-text("Revoke the certificate")');
    await page.waitForURL(/\/console\/certificates\/\d+\?notice=revoked$/);
    await checkPage(page, 'a revoked certificate');
    const verification = await page.request.get(`${origin}${link}`);
    assert.equal((await verification.json()).data.status, 'revoked');
    await page.goto(`${origin}/console/students/${passedStudent}`);
    await checkPage(page, 'a student with a certificate');
    await page.goto(`${origin}/console/certificates`);
    await checkPage(page, 'the certificates');

    // The import: the file chosen and sent by keyboard alone.
    await page.goto(`${origin}/console/students/import`);
    await checkPage(page, 'the import form');
    const chooseAndSend = async (content: string) => {
      await page.focus('a[href="/console/students"]');
      for (let i = 0; i < 10; i++) {
        if ((await page.evaluate<string | undefined>('document.activeElement?.id')) === 'f-file') break;
        await page.keyboard.press('Tab');
      }
      assert.equal(await page.evaluate<string | undefined>('document.activeElement?.id'), 'f-file', 'the file input takes the focus');
      // Space on the focused file input opens the chooser; on a loaded machine the first press was
      // once lost (no chooser in 30 s), so it is pressed again, up to three times.
      let chooser: FileChooser | undefined;
      for (let attempt = 0; attempt < 3 && !chooser; attempt++) {
        [chooser] = await Promise.all([
          page.waitForEvent('filechooser', { timeout: 10_000 }).catch(() => undefined),
          page.keyboard.press('Space'),
        ]);
      }
      assert.ok(chooser, 'Space on the file input opens the file chooser');
      await chooser.setFiles({ name: 'students.csv', mimeType: 'text/csv', buffer: Buffer.from(content) });
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate<string | undefined>('document.activeElement?.textContent?.trim()'), 'Upload and preview');
      await Promise.all([page.waitForURL(/\/console\/students\/import\/[A-Za-z0-9_-]{24}$/), page.keyboard.press('Enter')]);
    };
    await chooseAndSend(`\uFEFFname;email;course\nGrace ${tag};grace-at-example;${courseSlug}\n`);
    assert.match((await page.textContent('main')) ?? '', /The file has 1 problem on 1 line/);
    await checkPage(page, 'an import’s problems by line');

    await page.goto(`${origin}/console/students/import`);
    await chooseAndSend(
      `\uFEFFname;email;course\nGrace ${tag};grace.${tag}@example.org;${courseSlug}\nAlan ${tag};alan.${tag}@example.org;${courseSlug}\n`,
    );
    assert.match((await page.textContent('main')) ?? '', /A dry run: nothing has been written yet\./);
    await checkPage(page, 'an import’s preview');
    await page.click('button:has-text("Import 2 rows")');
    await page.waitForURL(/\/console\/students\/import\/[A-Za-z0-9_-]{24}$/);
    assert.match((await page.textContent('[role=status]')) ?? '', /Imported: 2 new students and 2 new applications\./);
    await checkPage(page, 'an import’s outcome');

    // An import still running (its record as the import keeps it): its progress, with a link to refresh.
    const cookie = (await page.context().cookies()).find((c) => c.name === 'academy_session')?.value as string;
    const id = 'RunningImport0123456789a';
    const dir = path.join(app.platform.config.dataDir, 'console-imports');
    await mkdir(dir, { recursive: true });
    const now = new Date().toISOString();
    await writeFile(
      path.join(dir, `${id}.json`),
      JSON.stringify({
        id,
        owner: app.platform.secrets.mac('console-import', cookie),
        user_id: user.id,
        filename: 'a-long-file-name-of-applications-for-the-spring-intake.csv',
        size: 4_200_000,
        uploaded_at: now,
        state: 'running',
        phase: 'writing',
        read: 40_000,
        written: 12_500,
        total: 40_000,
        summary: null,
        errors: null,
        error_count: 0,
        failure: null,
        finished_at: null,
        updated_at: now,
      }),
    );
    await page.goto(`${origin}/console/students/import/${id}`);
    assert.match((await page.textContent('[role=status]')) ?? '', /Importing: 12,500 of 40,000 rows written\./);
    await checkPage(page, 'an import’s progress');
    await page.click('text=Refresh');
    await page.waitForURL(`${origin}/console/students/import/${id}`);

    assert.deepEqual(problems, []);
  });
});
