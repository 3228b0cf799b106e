import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { bearer, createTestApp } from '../support/platform.ts';

describe('ACADEMY_RATE_LIMIT_PER_MINUTE', () => {
  test('defaults to 120 and refuses values that are not a positive integer', () => {
    assert.equal(loadConfig({}).rateLimitPerMinute, 120);
    assert.equal(loadConfig({ ACADEMY_RATE_LIMIT_PER_MINUTE: '5000' }).rateLimitPerMinute, 5000);
    for (const bad of ['0', '-1', '2.5', 'many']) {
      assert.throws(
        () => loadConfig({ ACADEMY_RATE_LIMIT_PER_MINUTE: bad }),
        (error: unknown) => error instanceof ConfigError && error.variable === 'ACADEMY_RATE_LIMIT_PER_MINUTE',
        bad,
      );
    }
  });

  test('sets the per-token limit that the headers announce and the 429 enforces', async () => {
    const app = await createTestApp({ env: { ACADEMY_RATE_LIMIT_PER_MINUTE: '3' } });
    const token = await app.token(['organization:read']);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await app.http.inject({ method: 'GET', url: '/api/v1/organization', headers: bearer(token) });
      statuses.push(res.statusCode);
      if (i === 0) {
        assert.equal(res.headers['ratelimit-policy'], '"default";q=3;w=60');
        assert.equal(res.headers['x-ratelimit-limit'], '3');
        assert.equal(res.headers.ratelimit?.toString().startsWith('"default";r=2;'), true);
      }
      if (i === 3) assert.equal(res.json().code, 'rate_limited');
    }
    assert.deepEqual(statuses, [200, 200, 200, 429]);
  });
});
