// The console's approvals, documents and reports in a real headless Chromium, as staff meet them: a
// review decided through its form, a document uploaded through the upload form (with the progress
// script of ours, and without it after a refusal), a report requested and downloaded once the job has
// made it. Every page is checked with axe (no serious or critical violation) at 1280 and 375 px, where
// the page itself must not scroll sideways; nothing is refused by the CSP or missing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { operatorContext, systemContext } from '../../src/platform/context.ts';
import { checkPage } from '../support/axe.ts';
import { BROWSER_JOURNEY_MS, launchChromium, skipWithoutChromium } from '../support/chromium.ts';
import { STAFF_PASSWORD, signedInStaff } from '../support/console.ts';
import { unique } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';

/** A small PDF that a reader opens: one page saying `text`, with its cross-reference table. */
function smallPdf(text: string): Buffer {
  const content = `BT /F1 18 Tf 20 50 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 240 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((object, i) => {
    const offset = pdf.length;
    pdf += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

describe('the console’s approvals, documents and reports in a browser', { skip: skipWithoutChromium }, () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let origin: string;
  const problems: string[] = [];
  /** How each upload was sent: by the progress script (`xhr`) or as a plain form (`document`). */
  const uploads: string[] = [];
  const tag = unique('work')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
  const slug = `${tag}-review`;

  before(async () => {
    app = await createTestApp();
    origin = (await app.http.listen({ port: 0, host: '127.0.0.1' })).replace('[::1]', '127.0.0.1');
    browser = await launchChromium();
    // axe needs a page of a context of our own (browser.newPage's is closed with the page).
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => /Refused to|Content Security Policy/.test(message.text()) && problems.push(message.text()));
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/console/documents') uploads.push(request.resourceType());
    });
    page.on('response', (response) => {
      const type = response.request().resourceType();
      // The upload script's request is answered as the form is (a 422 with the form again): not a missing resource.
      if (type !== 'document' && type !== 'xhr' && response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    // A course in review (its approval waiting), with a long title that a phone must wrap.
    const ctx = operatorContext(app.platform);
    await app.services.courses.create(ctx, {
      slug,
      title: `${tag} Project management for people who run projects without the title of project manager`,
      code: `${tag}-PM`,
      price: '900.00',
      currency: 'EUR',
      language: 'en',
    });
    await app.services.courses.transition(ctx, slug, { to_state: 'review' });
  });

  after(async () => {
    await browser?.close();
  });

  test('an administrator decides a review, uploads a document, requests a report; every page passes axe', {
    timeout: BROWSER_JOURNEY_MS,
  }, async () => {
    const { user } = await signedInStaff(app, ['administrator'], unique('Administrator'));
    await page.goto(`${origin}/console/approvals`);
    await page.waitForURL(/\/console\/sign-in\?next=/);
    await page.fill('#f-email', user.email);
    await page.fill('#f-password', STAFF_PASSWORD);
    await page.click('form[action="/console/sign-in"] button[type=submit]');
    await page.waitForURL(`${origin}/console/approvals`);
    assert.match((await page.textContent('main')) ?? '', /Project management for people/);
    await checkPage(page, 'the approvals inbox');

    // Approvals: a review's page, a decision with a comment, its history.
    await page.click('main table a[href^="/console/approvals/"]');
    await page.waitForURL(/\/console\/approvals\/\d+$/);
    await checkPage(page, 'a review');
    await page.click('button:has-text("Record the decision")');
    assert.equal(await page.getAttribute('#f-to_state', 'aria-invalid'), 'true', 'a decision is needed');
    await checkPage(page, 'a review with an error');
    await page.selectOption('#f-to_state', 'in_review');
    await page.fill('#f-comment', 'Reading the syllabus <b>now</b>.');
    await page.click('button:has-text("Record the decision")');
    await page.waitForURL(/\/console\/approvals\/\d+\?notice=decided$/);
    assert.match((await page.textContent('[role=status]')) ?? '', /now in review/);
    assert.match((await page.textContent('main table')) ?? '', /Reading the syllabus <b>now<\/b>\./, 'text, never markup');
    await checkPage(page, 'a review with its history');
    await page.goto(`${origin}/console/approvals?workflow=document_approval`);
    await checkPage(page, 'an empty inbox');

    // Documents: the empty list, the upload form refused by the server (shown by the script), then an upload with progress.
    await page.goto(`${origin}/console/documents`);
    await checkPage(page, 'no documents yet');
    await page.click('text=Upload a document');
    await page.waitForURL(`${origin}/console/documents/new`);
    await checkPage(page, 'the upload form');
    await page.fill('#f-title', `${tag} Syllabus`);
    await page.click('button:has-text("Upload")');
    await page.waitForSelector('.error-summary');
    assert.match((await page.textContent('.error-summary')) ?? '', /The type field must be one of/);
    assert.equal(await page.inputValue('#f-title'), `${tag} Syllabus`, 'what was typed is kept');
    await checkPage(page, 'the upload form with its errors');

    // Without the script now (the page was replaced): the form posts as a plain form.
    await page.selectOption('#f-type', 'course_document');
    await page.setInputFiles('#f-file', { name: 'syllabus.pdf', mimeType: 'application/pdf', buffer: smallPdf('Syllabus') });
    await page.click('button:has-text("Upload")');
    await page.waitForURL(/\/console\/documents\/\d+\?notice=uploaded$/);
    const first = Number(/\/console\/documents\/(\d+)/.exec(page.url())?.[1]);
    await checkPage(page, 'a document’s page');

    // A new version, through the script: its progress shown, then the new version's page.
    await page.click('text=Upload a new version');
    await page.waitForURL(`${origin}/console/documents/new?supersedes=${first}`);
    await checkPage(page, 'the form of a new version');
    await page.setInputFiles('#f-file', { name: 'syllabus-2.pdf', mimeType: 'application/pdf', buffer: smallPdf('Syllabus, revised') });
    await page.click('button:has-text("Upload")');
    await page.waitForURL(/\/console\/documents\/\d+\?notice=uploaded$/);
    assert.notEqual(Number(/\/console\/documents\/(\d+)/.exec(page.url())?.[1]), first);
    assert.match((await page.textContent('main')) ?? '', /syllabus-2\.pdf/);
    assert.match((await page.textContent('main table')) ?? '', /\(this one\)/);
    await checkPage(page, 'a document with two versions');
    await page.click('text=Delete…');
    await page.waitForURL(/\/console\/documents\/\d+\/delete$/);
    await checkPage(page, 'the confirmation of a delete');
    await page.click('button:has-text("Delete the document")');
    await page.waitForURL(/\?notice=deleted$/);
    await page.goto(`${origin}/console/documents`);
    await checkPage(page, 'the documents');
    assert.deepEqual(uploads, ['xhr', 'document', 'xhr'], 'the script sends the form; a page it replaced posts it plainly');

    // Reports: the empty list, the form with an error, a request, and the report once the job made it.
    await page.goto(`${origin}/console/reports`);
    await checkPage(page, 'no reports yet');
    await page.click('text=Request a report');
    await page.waitForURL(`${origin}/console/reports/new`);
    await checkPage(page, 'the report form');
    await page.selectOption('#f-type', 'session_capacity');
    await page.fill('#f-from', '2027-01-01');
    await page.click('button:has-text("Request the report")');
    assert.equal(await page.getAttribute('#f-from', 'aria-invalid'), 'true');
    await checkPage(page, 'the report form with its errors');
    await page.fill('#f-from', '');
    await page.click('button:has-text("Request the report")');
    await page.waitForURL(/\/console\/reports\/\d+\?notice=requested$/);
    const report = Number(/\/console\/reports\/(\d+)/.exec(page.url())?.[1]);
    await checkPage(page, 'a requested report');
    assert.equal(await app.services.reports.generate(systemContext(app.platform), report), 'available');
    await page.click('text=Refresh');
    assert.match((await page.textContent('main')) ?? '', /Available/);
    await checkPage(page, 'an available report');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('text=Download the file')]);
    assert.match(download.suggestedFilename(), new RegExp(`^session_capacity-\\d{4}-\\d{2}-\\d{2}-${report}\\.csv$`));
    await page.goto(`${origin}/console/reports`);
    await checkPage(page, 'the reports');

    assert.deepEqual(problems, []);
  });
});
