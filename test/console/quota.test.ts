import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { signedInStaff } from '../support/console.ts';
import { formClient } from '../support/forms.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';

/**
 * The console's rate limit: each signed-in session counted on its own against the per-token quota
 * (ACADEMY_RATE_LIMIT_PER_MINUTE), so that an office behind one address is not one user; requests
 * without a session count against the address, as the sign-in pages do.
 */
describe('console rate limits', () => {
  let app: TestApp;
  before(async () => {
    app = await createTestApp({ env: { ACADEMY_RATE_LIMIT_PER_MINUTE: '8' } });
  });

  test('two users behind one address each have the per-token quota; the ninth page of one is a 429 page', async () => {
    const [first, second] = await Promise.all([signedInStaff(app, ['viewer']), signedInStaff(app, ['viewer'])]);
    // Both from one office address (the form client gives each browser an address of its own otherwise).
    const office = '10.20.30.40';
    const page = (who: typeof first) => who.browser.request('GET', '/console/courses', undefined, office);
    const statuses = [];
    for (let i = 0; i < 9; i++) statuses.push((await page(first)).statusCode);
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 200, 200, 429]);
    const refused = await page(first);
    assert.ok(Number(refused.headers['retry-after']) > 0, 'Retry-After on the refusal');
    assert.match(String(refused.headers['content-type']), /^text\/html/, 'a page in the console’s frame');
    assert.equal((await page(second)).statusCode, 200, 'the other user behind the same address goes on');
    assert.match(String((await page(second)).headers.ratelimit), /^"default";r=\d+;t=\d+$/);
  });

  test('without a session, pages count against the address (and send to sign-in)', async () => {
    const stranger = formClient(app.http, '10.20.30.99');
    const statuses = new Set<number>();
    for (let i = 0; i < 65; i++) statuses.add((await stranger.request('GET', '/console/courses')).statusCode);
    assert.deepEqual([...statuses].sort(), [303, 429], 'redirected to sign-in until the anonymous limit (60 a minute)');
  });
});
