import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { fixedClock } from '../../src/platform/clock.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

const ORG = '/api/v1/organization';
const MISSING = 'Bearer realm="academy"';
const INVALID = 'Bearer realm="academy", error="invalid_token"';

describe('authentication and scopes', () => {
  const clock = fixedClock('2026-12-01T09:00:00.000Z');
  let app: TestApp;

  before(async () => {
    app = await createTestApp({ clock });
  });

  const get = (headers: Record<string, string> = {}) => app.http.inject({ method: 'GET', url: ORG, headers });
  const patch = (headers: Record<string, string>, payload: Record<string, unknown> = { phone: '+44 20 7946 0000' }) =>
    app.http.inject({ method: 'PATCH', url: ORG, headers, payload });
  const issue = (scopes: string[], expiresInDays: number | null = null) =>
    app.platform.tokens.create({ name: 'auth-test', scopes, expiresInDays });

  function assertUnauthenticated(res: Awaited<ReturnType<typeof get>>, challenge: string, what: string) {
    assert.equal(res.statusCode, 401, what);
    assert.equal(res.headers['www-authenticate'], challenge, what);
    const body = res.json();
    assert.equal(body.code, 'unauthenticated', what);
    assert.equal(typeof body.message, 'string', what);
  }

  test('no token: 401 with a bare Bearer challenge', async () => {
    assertUnauthenticated(await get(), MISSING, 'no Authorization header');
    // Credentials of another scheme are not a bearer token: the plain challenge, too.
    assertUnauthenticated(await get({ authorization: 'Basic dXNlcjpwYXNz' }), MISSING, 'a Basic credential');
  });

  test('a token that is unknown or malformed: 401 invalid_token', async () => {
    const unknown = `acd_${randomBytes(32).toString('base64url')}`;
    for (const authorization of [`Bearer ${unknown}`, 'Bearer nonsense', 'Bearer ', `Bearer ${unknown} extra`]) {
      assertUnauthenticated(await get({ authorization }), INVALID, authorization);
    }
  });

  test('an expired token: 401 invalid_token from the moment it expires', async () => {
    const { token } = await issue(['organization:read'], 1);
    assert.equal((await get(bearer(token))).statusCode, 200);
    clock.advance(86_400_000 - 1000);
    assert.equal((await get(bearer(token))).statusCode, 200, 'still valid one second before expiry');
    clock.advance(1000);
    assertUnauthenticated(await get(bearer(token)), INVALID, 'expired');
  });

  test('a revoked token: 401 invalid_token at once', async () => {
    const { token, record } = await issue(['organization:read']);
    assert.equal((await get(bearer(token))).statusCode, 200);
    await app.platform.tokens.revoke(record.id);
    assertUnauthenticated(await get(bearer(token)), INVALID, 'revoked');
    await assert.rejects(app.platform.tokens.setScopes(record.id, ['*']), { code: 'validation_failed' }, 'scopes do not revive it');
    assertUnauthenticated(await get(bearer(token)), INVALID, 'still revoked');
  });

  test('rotation: the old secret stops working at once, the new one works with the same scopes', async () => {
    const { token, record } = await issue(['organization:read']);
    const rotated = await app.platform.tokens.rotate(record.id);
    assert.notEqual(rotated.token, token);
    assertUnauthenticated(await get(bearer(token)), INVALID, 'the rotated-away token');
    assert.equal((await get(bearer(rotated.token))).statusCode, 200);
    assert.deepEqual(rotated.record.scopes, ['organization:read']);
  });

  test('two rotations of one token at once: one succeeds, the other is refused, one live replacement', async () => {
    const { record } = await issue(['organization:read']);
    const outcomes = await Promise.allSettled([app.platform.tokens.rotate(record.id), app.platform.tokens.rotate(record.id)]);
    assert.deepEqual(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected']);
    const live = (await app.platform.tokens.list()).filter((t) => t.name === 'auth-test' && t.revoked_at === null);
    const replacement = (outcomes.find((o) => o.status === 'fulfilled') as PromiseFulfilledResult<{ record: { id: number } }>).value;
    assert.ok(live.some((t) => t.id === replacement.record.id));
    const rows = await app.platform.database.db.selectFrom('api_tokens').selectAll().where('rotated_to_id', 'is not', null).execute();
    const fromThis = rows.filter((r) => r.id === record.id);
    assert.equal(fromThis[0]?.rotated_to_id, replacement.record.id);
    const orphans = await app.platform.database.db
      .selectFrom('api_tokens')
      .select('id')
      .where('id', '>', record.id)
      .where('revoked_at', 'is', null)
      .execute();
    assert.deepEqual(
      orphans.map((o) => o.id),
      [replacement.record.id],
      'no second live token was left behind',
    );
  });

  test('a missing scope: 403 insufficient_scope naming the scope in the challenge', async () => {
    const { token } = await issue(['organization:read']);
    const res = await patch(bearer(token));
    assert.equal(res.statusCode, 403);
    assert.equal(res.headers['www-authenticate'], 'Bearer realm="academy", error="insufficient_scope", scope="organization:write"');
    assert.equal(res.json().code, 'insufficient_scope');
    assert.match(res.json().message, /organization:write/);
  });

  test('* grants every scope', async () => {
    const { token } = await issue(['*']);
    assert.equal((await get(bearer(token))).statusCode, 200);
    const res = await patch(bearer(token), { phone: '+44 20 7946 0001' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().data.phone, '+44 20 7946 0001');
  });

  test('the reserved scopes certificates:issue and integrations:manage grant nothing', async () => {
    const { token } = await issue(['certificates:issue', 'integrations:manage']);
    for (const res of [await get(bearer(token)), await patch(bearer(token))]) {
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().code, 'insufficient_scope');
    }
  });

  test('order: 401 before 403, and 403 before the body is looked at', async () => {
    assertUnauthenticated(await patch({}), MISSING, 'PATCH without a token');
    assertUnauthenticated(await patch({ authorization: 'Bearer acd_unknown' }), INVALID, 'PATCH with an unknown token');
    const { token } = await issue(['organization:read']);
    const res = await patch(bearer(token), { timezone: 'Not/AZone', unknown: 1 });
    assert.equal(res.statusCode, 403, 'an invalid body from a token without the scope is still a 403, not a 422');
    assert.equal(res.json().code, 'insufficient_scope', 'an invalid body from a token without the scope is still a 403, not a 422');
  });

  test('api_tokens stores no secret: only the SHA-256 hex of it', async () => {
    const issued = await Promise.all([issue(['*']), issue(['organization:read'], 30)]);
    const rows = await app.platform.database.db.selectFrom('api_tokens').selectAll().execute();
    assert.ok(rows.length >= issued.length);
    for (const { token, record } of issued) {
      const secret = token.slice('acd_'.length);
      for (const row of rows) {
        for (const [column, value] of Object.entries(row)) {
          const text = String(value);
          assert.ok(!text.includes(token) && !text.includes(secret), `api_tokens.${column} of row ${row.id} holds the token`);
        }
      }
      const row = rows.find((r) => r.id === record.id);
      assert.equal(row?.token_hash, createHash('sha256').update(token).digest('hex'));
      assert.match(row?.token_hash ?? '', /^[0-9a-f]{64}$/);
    }
  });

  test('last_used_at is recorded in batches, not written by each request', async () => {
    const { token, record } = await issue(['organization:read']);
    const lastUsed = async () =>
      (await app.platform.database.db.selectFrom('api_tokens').select('last_used_at').where('id', '=', record.id).executeTakeFirstOrThrow())
        .last_used_at;
    for (let i = 0; i < 3; i++) assert.equal((await get(bearer(token))).statusCode, 200);
    assert.equal(await lastUsed(), null, 'nothing written on the request path');
    await app.platform.tokens.flushUsage();
    assert.equal(await lastUsed(), clock.now().toISOString());
    assert.equal((await app.platform.tokens.list()).find((t) => t.id === record.id)?.last_used_at, clock.now().toISOString());
  });
});
