import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixtures } from '../support/fixtures.ts';
import { bearer, createTestApp } from '../support/platform.ts';

test('a token acting for a user stops working when the user is suspended or archived, and works again on reactivation', async () => {
  const app = await createTestApp();
  const make = fixtures(app.platform);
  const admin = await app.token(['users:write']);
  const user = await make.user({ is_admin: true, status: 'active' });
  const token = await make.token(['organization:read'], { userId: user.id });
  const read = async () =>
    (await app.http.inject({ method: 'GET', url: '/api/v1/organization', headers: bearer(token.secret) })).statusCode;
  const move = async (action: string) => {
    const res = await app.http.inject({ method: 'POST', url: `/api/v1/users/${user.id}/${action}`, headers: bearer(admin) });
    assert.equal(res.statusCode, 200, res.body);
  };

  assert.equal(await read(), 200, 'the token works (and is now cached)');
  await move('suspend');
  assert.equal(await read(), 401, 'refused at once after the suspension, although it was cached');
  await move('reactivate');
  assert.equal(await read(), 200);
  await move('archive');
  assert.equal(await read(), 401);
});
