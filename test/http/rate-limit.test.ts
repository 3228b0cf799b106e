import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Item, parseList } from 'structured-headers';
import { dialect } from '../support/env.ts';
import { assertError } from '../support/errors.ts';
import { bearer, createClosableApp, createTestApp, type TestApp } from '../support/platform.ts';

const ORG = '/api/v1/organization';

/** Parses an RFC 8941 List holding one Item, as RateLimit and RateLimit-Policy do for one policy. */
function singleItem(value: unknown): { name: unknown; params: Map<string, unknown> } {
  assert.equal(typeof value, 'string');
  const list = parseList(value as string);
  assert.equal(list.length, 1, `one policy in ${value}`);
  const [name, params] = list[0] as Item;
  return { name, params };
}

describe('rate limits', () => {
  let app: TestApp;

  before(async () => {
    app = await createTestApp();
  });

  test('per token: 120 requests pass with a falling budget, the 121st is a 429 with Retry-After', async () => {
    const token = await app.token(['organization:read']);
    const started = Math.floor(Date.now() / 1000);
    for (let i = 1; i <= 120; i++) {
      const res = await app.http.inject({ method: 'GET', url: ORG, headers: bearer(token) });
      assert.equal(res.statusCode, 200, `request ${i}`);
      assert.equal(res.headers['x-ratelimit-limit'], '120');
      assert.equal(res.headers['x-ratelimit-remaining'], String(120 - i), `request ${i}`);
      assert.equal(res.headers['retry-after'], undefined);
      if (i === 1 || i === 120) {
        const policy = singleItem(res.headers['ratelimit-policy']);
        assert.equal(policy.name, 'default');
        assert.equal(policy.params.get('q'), 120);
        assert.equal(policy.params.get('w'), 60);
        const state = singleItem(res.headers.ratelimit);
        assert.equal(state.name, 'default');
        assert.equal(state.params.get('r'), 120 - i);
        const t = state.params.get('t');
        assert.ok(Number.isInteger(t) && (t as number) >= 1 && (t as number) <= 60, `t=${t}`);
      }
    }

    const limited = await app.http.inject({ method: 'GET', url: ORG, headers: bearer(token) });
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.json().code, 'rate_limited');
    assert.equal(typeof limited.json().message, 'string');
    const retryAfter = limited.headers['retry-after'] as string;
    assert.match(retryAfter, /^[1-9]\d*$/, 'Retry-After is a positive whole number of seconds');
    assert.ok(Number(retryAfter) <= 60);
    const reset = Number(limited.headers['x-ratelimit-reset']);
    assert.ok(Number.isInteger(reset));
    assert.ok(
      reset >= started && reset <= Math.ceil(Date.now() / 1000) + 61,
      `X-RateLimit-Reset ${reset} is a unix time within the window`,
    );
    assert.equal(limited.headers['x-ratelimit-remaining'], '0');
    assert.equal(singleItem(limited.headers.ratelimit).params.get('r'), 0);
    assert.equal(singleItem(limited.headers['ratelimit-policy']).params.get('q'), 120);
  });

  test('another token has a budget of its own', async () => {
    const token = await app.token(['organization:read']);
    const res = await app.http.inject({ method: 'GET', url: ORG, headers: bearer(token) });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-ratelimit-remaining'], '119');
  });

  test('a token over its budget is refused even where it lacks the scope (the limit comes first)', async () => {
    const token = await app.token(['organization:read']);
    for (let i = 0; i < 120; i++) await app.http.inject({ method: 'GET', url: ORG, headers: bearer(token) });
    const res = await app.http.inject({ method: 'PATCH', url: ORG, headers: bearer(token), payload: { name: 'x' } });
    assert.equal(res.statusCode, 429);
    assert.equal(res.json().code, 'rate_limited');
  });

  test('requests without a valid token are limited per client address, under the policy "anonymous"', async () => {
    const from = (remoteAddress: string, headers: Record<string, string> = {}) =>
      app.http.inject({ method: 'GET', url: ORG, headers, remoteAddress });
    const first = await from('192.0.2.10');
    assert.equal(first.statusCode, 401);
    assert.equal(first.json().code, 'unauthenticated');
    const policy = singleItem(first.headers['ratelimit-policy']);
    assert.equal(policy.name, 'anonymous');
    const limit = policy.params.get('q') as number;
    assert.ok(Number.isInteger(limit) && limit > 0);
    assert.equal(policy.params.get('w'), 60);

    let last = first;
    for (let i = 2; i <= limit; i++) {
      last = await from('192.0.2.10', i % 2 ? {} : { authorization: `Bearer acd_guess${i}` });
      assert.equal(last.statusCode, 401, `request ${i}`);
      assert.equal(last.json().code, 'unauthenticated', `request ${i}`);
    }
    assert.equal(singleItem(last.headers.ratelimit).params.get('r'), 0);
    const limited = await from('192.0.2.10', { authorization: 'Bearer acd_one-more-guess' });
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.json().code, 'rate_limited');
    assert.match(limited.headers['retry-after'] as string, /^[1-9]\d*$/);

    assertError(await from('192.0.2.11'), 401, 'unauthenticated', 'another address has its own budget');
    const token = await app.token(['organization:read']);
    assert.equal((await from('192.0.2.11', bearer(token))).statusCode, 200);
    assert.equal((await from('192.0.2.10', bearer(token))).statusCode, 200, 'a valid token known to the process is counted per token');
    const unseen = await app.token(['organization:read']);
    assertError(await from('192.0.2.10', bearer(unseen)), 429, 'rate_limited', 'a token not yet known is not looked up for that address');
  });
});

describe('an address over its limit', () => {
  // On PostgreSQL: an embedded SQLite database that is closed fails every statement, the change
  // feed's included, where a server that is gone leaves the process what it knows.
  test('is refused before any token is looked up: a 429 at once, even with the database gone', {
    skip: dialect === 'sqlite' && 'PostgreSQL only',
  }, async () => {
    const { app, platform, drop } = await createClosableApp();
    try {
      const from = (headers: Record<string, string>) =>
        app.http.inject({ method: 'GET', url: ORG, headers, remoteAddress: '198.51.100.7' });
      let guesses = 0;
      while ((await from({ authorization: `Bearer acd_guess-${++guesses}` })).statusCode === 401) assert.ok(guesses <= 1000);
      // Over the limit: the next guesses would each cost a look-up of their token. With the database
      // gone, a look-up would answer 503 after its timeout; the address's limit answers first.
      await platform.database.close();
      for (let i = 0; i < 5; i++) {
        const res = await from({ authorization: `Bearer acd_another-guess-${i}` });
        assert.equal(res.statusCode, 429, res.body);
        assert.equal(res.json().code, 'rate_limited');
      }
    } finally {
      await drop();
    }
  });
});
