// The interactive reference at /docs, in a real headless Chromium, opened under a host name of an
// intranet (`academy.intranet.test`, which the browser resolves to loopback) over plain HTTP, as
// from another computer of the network: it renders the operations, fetches nothing from anywhere but
// this server (no CDN, no validator badge, no web fonts), and its try-it-out writes work.
// UPDATE_SCREENSHOT=1 writes docs/reference.png.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, skipWithoutChromium } from '../support/chromium.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';

/** A name that is neither localhost nor an address: what a browser elsewhere on the network would use. */
const HOST = 'academy.intranet.test';

describe('interactive API docs at /docs', { skip: skipWithoutChromium }, () => {
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let origin: string;
  const requests: string[] = [];
  const refusals: string[] = [];

  before(async () => {
    app = await createTestApp();
    const listening = new URL(await app.http.listen({ port: 0, host: '127.0.0.1' }));
    origin = `http://${HOST}:${listening.port}`;
    browser = await launchChromium([`--host-resolver-rules=MAP ${HOST} 127.0.0.1`]);
    page = await browser.newPage();
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => /Content Security Policy|Refused to/.test(message.text()) && refusals.push(message.text()));
    const response = await page.goto(`${origin}/docs`, { waitUntil: 'networkidle' });
    assert.equal(response?.status(), 200);
  });

  after(async () => {
    await browser?.close();
  });

  test('is served over plain HTTP without asking for https, under its own title', async () => {
    // Asked by the page itself: only the browser knows the host name.
    const [status, csp] = await page.evaluate(async () => {
      const answer = await fetch('/docs/static/index.html');
      return [answer.status, answer.headers.get('content-security-policy') ?? ''] as const;
    });
    assert.equal(status, 200);
    assert.match(csp, /default-src 'self'/);
    assert.doesNotMatch(csp, /upgrade-insecure-requests/);
    assert.equal(await page.title(), 'Academy API reference');
    await page.locator('.opblock').first().waitFor({ state: 'visible', timeout: 15_000 });
    const file =
      process.env.UPDATE_SCREENSHOT === '1'
        ? path.resolve('docs/reference.png')
        : path.join(tmpdir(), `academy-reference-${process.pid}.png`);
    await page.screenshot({ path: file, fullPage: false });
    assert.ok(existsSync(file));
  });

  test('renders the operations of the document', async () => {
    await page.locator('.opblock').first().waitFor({ state: 'visible', timeout: 15_000 });
    const get = page.locator('#operations-Organization-getOrganization');
    const patch = page.locator('#operations-Organization-updateOrganization');
    await get.waitFor({ state: 'visible' });
    await patch.waitFor({ state: 'visible' });
    assert.equal((await get.locator('.opblock-summary-method').textContent())?.trim(), 'GET');
    assert.equal((await get.locator('.opblock-summary-path').textContent())?.trim(), '/api/v1/organization');
    assert.equal((await patch.locator('.opblock-summary-method').textContent())?.trim(), 'PATCH');
    assert.equal((await patch.locator('.opblock-summary-path').textContent())?.trim(), '/api/v1/organization');
    assert.match((await page.locator('.info .title').textContent()) ?? '', /Training Administration API/);
  });

  test('expanding an operation shows its scope and documented error responses', async () => {
    const get = page.locator('#operations-Organization-getOrganization');
    await get.locator('.opblock-summary-control').click();
    await get.locator('.responses-table').first().waitFor({ state: 'visible' });
    const text = (await get.textContent()) ?? '';
    assert.match(text, /organization:read/);
    for (const status of ['200', '401', '403', '429']) {
      assert.equal(await get.locator(`tr.response[data-code="${status}"]`).count(), 1, `response ${status} is listed`);
    }
  });

  test('loads everything from this server only', async () => {
    await page.waitForLoadState('networkidle');
    assert.ok(
      requests.some((url) => url.endsWith('/json') || url.includes('openapi')),
      `the document was fetched: ${requests.join(', ')}`,
    );
    const foreign = requests.filter((url) => {
      const { protocol, host } = new URL(url);
      return protocol !== 'data:' && protocol !== 'blob:' && host !== new URL(origin).host;
    });
    assert.deepEqual(foreign, [], 'requests to other hosts');
  });

  /** Opens an operation, presses "Try it out" and "Execute"; the status of the live response. */
  async function tryOut(operation: string, times = 1): Promise<{ statuses: string[]; bodies: string[] }> {
    const block = page.locator(`#operations-${operation}`);
    if (!(await block.locator('.try-out__btn').isVisible())) await block.locator('.opblock-summary-control').click();
    const tryButton = block.locator('.try-out__btn');
    if ((await tryButton.textContent())?.trim() === 'Try it out') await tryButton.click();
    const statuses: string[] = [];
    const bodies: string[] = [];
    for (let i = 0; i < times; i++) {
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url().includes('/api/v1/') && r.request().method() !== 'GET'),
        block.locator('button.execute').click(),
      ]);
      statuses.push(String(response.status()));
      bodies.push(await response.text());
      await block.locator('.btn-clear').click();
    }
    return { statuses, bodies };
  }

  test('try-it-out writes: a PATCH answers 200, and a POST sent twice makes two things', async () => {
    const token = await app.token(['organization:write', 'organization:read', 'reports:write', 'reports:read']);
    await page.locator('.btn.authorize').first().click();
    await page.locator('.auth-container input').first().fill(token);
    await page.locator('.auth-btn-wrapper .authorize').first().click();
    await page.locator('.btn-done').first().click();

    const patched = await tryOut('Organization-updateOrganization');
    assert.deepEqual(patched.statuses, ['200'], `PATCH /organization: ${patched.bodies.join(' | ')}`);

    const posted = await tryOut('Reports-requestReport', 2);
    assert.deepEqual(posted.statuses, ['202', '202'], posted.bodies.join(' | '));
    const [first, second] = posted.bodies.map((body) => JSON.parse(body).data.id as number);
    assert.notEqual(first, second, 'two reports, not one replayed');
    assert.deepEqual(refusals, [], 'the page needs nothing its CSP refuses');
  });
});
