import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { buildApp } from '../../src/assembly/app.ts';
import { MAX_BODY_VALUES } from '../../src/http/input.ts';
import { fixedClock } from '../../src/platform/clock.ts';
import { ConflictError } from '../../src/platform/errors.ts';
import { createIdempotencyRepository } from '../../src/platform/idempotency/repository.ts';
import { createIdempotencyService, IDEMPOTENCY_TTL_MS, IN_PROGRESS_LEASE_MS } from '../../src/platform/idempotency/service.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { bearer, createTestAssembly } from '../support/platform.ts';

/** Test-only routes whose side effects (`created`) show whether a request really ran. */
function things() {
  const created: { id: number; name: string }[] = [];
  let failNext = false;
  let gate: { entered: () => void; release: Promise<void> } | null = null;
  const state = {
    created,
    failNextCall() {
      failNext = true;
    },
    /** Holds the next call of /slow until `open()`; resolves `entered` once it is running. */
    holdNext() {
      let open!: () => void;
      let entered!: () => void;
      const release = new Promise<void>((resolve) => (open = resolve));
      const running = new Promise<void>((resolve) => (entered = resolve));
      gate = { entered, release };
      return { open, running };
    },
    async register(http: FastifyInstance) {
      const body = Type.Object({
        name: Type.String({ minLength: 1 }),
        tags: Type.Optional(Type.Array(Type.String())),
        conflict: Type.Optional(Type.Boolean()),
      });
      const create = async (request: { body: unknown }, reply: { code(n: number): unknown; header(k: string, v: string): unknown }) => {
        const input = request.body as { name: string; conflict?: boolean };
        if (failNext) {
          failNext = false;
          throw new Error('database exploded: select * from secrets');
        }
        if (input.conflict) throw new ConflictError('conflict', 'That thing conflicts.');
        const thing = { id: created.length + 1, name: input.name };
        created.push(thing);
        reply.code(201);
        reply.header('location', `/api/v1/things/${thing.id}`);
        return { data: thing };
      };
      http.post('/api/v1/things', { config: { access: { scope: 'organization:write' } }, schema: { body } }, create);
      http.post('/api/v1/things/other', { config: { access: { scope: 'organization:write' } }, schema: { body } }, create);
      // An action without a documented body, like `POST /documents/{document}/archive`: any JSON is let through.
      http.post('/api/v1/things/touch', { config: { access: { scope: 'organization:write' } } }, async (_request, reply) => {
        const thing = { id: created.length + 1, name: 'touched' };
        created.push(thing);
        reply.code(201);
        return { data: thing };
      });
      http.post('/api/v1/slow', { config: { access: { scope: 'organization:write' } }, schema: { body } }, async (request, reply) => {
        const current = gate;
        gate = null;
        if (current) {
          current.entered();
          await current.release;
        }
        return create(request, reply);
      });
    },
  };
  return state;
}

/**
 * Test-only routes that change the database in a transaction: one that then answers, one whose
 * transaction fails after its write (nothing is kept), one that fails after its commit (a 5xx after
 * the change was saved). Each write is a `runtime_state` row named after the request's body.
 */
function registerSaving(http: FastifyInstance, platform: Platform) {
  const body = Type.Object({ name: Type.String({ minLength: 1 }) });
  const access = { scope: 'organization:write' } as const;
  const save = (name: string, then: () => void = () => {}) =>
    platform.database.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('runtime_state')
        .values({ key: `saved:${name}`, value: name, updated_at: new Date().toISOString() })
        .execute();
      then();
    });
  http.post('/api/v1/saved', { config: { access }, schema: { body } }, async (request, reply) => {
    await save((request.body as { name: string }).name);
    reply.code(201);
    return { data: { name: (request.body as { name: string }).name } };
  });
  http.post('/api/v1/saved/rolled-back', { config: { access }, schema: { body } }, async (request) => {
    await save((request.body as { name: string }).name, () => {
      throw new ConflictError('conflict', 'Refused inside the transaction.');
    });
    return { data: {} };
  });
  http.post('/api/v1/saved/then-failed', { config: { access }, schema: { body } }, async (request) => {
    await save((request.body as { name: string }).name);
    throw new Error('the answer could not be made after the commit');
  });
}

describe('Idempotency-Key on POST', () => {
  const clock = fixedClock('2026-12-01T10:00:00.000Z');
  const state = things();
  let platform: Platform;
  let http: FastifyInstance;
  let token: string;
  let otherToken: string;

  const post = (key: string | null, payload: unknown, options: { url?: string; as?: string } = {}) =>
    http.inject({
      method: 'POST',
      url: options.url ?? '/api/v1/things',
      headers: { ...bearer(options.as ?? token), ...(key === null ? {} : { 'idempotency-key': key }) },
      payload: payload as Record<string, unknown>,
    });

  const keysStored = async () => platform.database.db.selectFrom('idempotency_keys').selectAll().execute();

  before(async () => {
    const assembly = await createTestAssembly({ clock });
    platform = assembly.platform;
    http = (
      await buildApp(assembly, {
        register: async (app) => {
          await state.register(app);
          registerSaving(app, platform);
        },
      })
    ).http;
    token = (await platform.tokens.create({ name: 'a', scopes: ['organization:write'], expiresInDays: null })).token;
    otherToken = (await platform.tokens.create({ name: 'b', scopes: ['*'], expiresInDays: null })).token;
  });

  test('a repeat with the same key and body replays the first response without running again', async () => {
    const first = await post('key-replay', { name: 'Alpha', tags: ['x'] });
    assert.equal(first.statusCode, 201);
    assert.equal(first.headers['idempotent-replayed'], undefined, 'the original is not marked as replayed');
    const count = state.created.length;

    const again = await post('key-replay', { name: 'Alpha', tags: ['x'] });
    assert.equal(again.statusCode, 201);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body, first.body, 'the same body, byte for byte');
    assert.equal(again.headers.location, first.headers.location);
    assert.equal(again.headers['content-type'], first.headers['content-type']);
    assert.ok(again.headers['x-request-id'], 'a replay is still a response of its own request');
    assert.notEqual(again.headers['x-request-id'], first.headers['x-request-id']);
    assert.equal(state.created.length, count, 'the handler did not run a second time');

    const reordered = await http.inject({
      method: 'POST',
      url: '/api/v1/things',
      headers: { ...bearer(token), 'idempotency-key': 'key-replay', 'content-type': 'application/json' },
      payload: '{ "tags": ["x"], "name": "Alpha" }',
    });
    assert.equal(reordered.headers['idempotent-replayed'], 'true', 'the same JSON with another key order is the same request');
    assert.equal(reordered.body, first.body);
  });

  test('the same key with another body or path is a 422 idempotency_key_reused', async () => {
    assert.equal((await post('key-reuse', { name: 'One' })).statusCode, 201);
    const count = state.created.length;
    const otherBody = await post('key-reuse', { name: 'Two' });
    assert.equal(otherBody.statusCode, 422);
    assert.equal(otherBody.json().code, 'idempotency_key_reused');
    assert.equal(typeof otherBody.json().message, 'string');
    const otherPath = await post('key-reuse', { name: 'One' }, { url: '/api/v1/things/other' });
    assert.equal(otherPath.statusCode, 422);
    assert.equal(otherPath.json().code, 'idempotency_key_reused');
    assert.equal(state.created.length, count, 'neither ran');
  });

  test('a body nested far deeper than the call stack is hashed like any other: it runs once, then replays', async () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const send = (key: string, payload: string) =>
      http.inject({
        method: 'POST',
        url: '/api/v1/things/touch',
        headers: { ...bearer(token), 'idempotency-key': key, 'content-type': 'application/json' },
        payload,
      });
    // As deep as a body may be: its values stay within the limit.
    const first = await send('key-deep', nested(MAX_BODY_VALUES));
    assert.equal(first.statusCode, 201, first.body);
    const count = state.created.length;
    const again = await send('key-deep', nested(MAX_BODY_VALUES));
    assert.equal(again.statusCode, 201, again.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body, first.body);
    const other = await send('key-deep', nested(MAX_BODY_VALUES - 1));
    assert.equal(other.statusCode, 422, other.body);
    assert.equal(other.json().code, 'idempotency_key_reused');
    assert.equal(state.created.length, count, 'neither repeat ran');
  });

  test('keys are per token: another token may use the same key for its own request', async () => {
    const mine = await post('key-shared', { name: 'Mine' });
    const theirs = await post('key-shared', { name: 'Theirs' }, { as: otherToken });
    assert.equal(mine.statusCode, 201);
    assert.equal(theirs.statusCode, 201);
    assert.equal(theirs.headers['idempotent-replayed'], undefined);
    assert.equal(theirs.json().data.name, 'Theirs');
  });

  test('while the first request is still running, a repeat is a 409 idempotency_key_in_use', async () => {
    const hold = state.holdNext();
    const first = post('key-busy', { name: 'Slow' }, { url: '/api/v1/slow' });
    await hold.running;
    const concurrent = await post('key-busy', { name: 'Slow' }, { url: '/api/v1/slow' });
    assert.equal(concurrent.statusCode, 409);
    assert.equal(concurrent.json().code, 'idempotency_key_in_use');
    hold.open();
    const done = await first;
    assert.equal(done.statusCode, 201);
    const after = await post('key-busy', { name: 'Slow' }, { url: '/api/v1/slow' });
    assert.equal(after.statusCode, 201);
    assert.equal(after.headers['idempotent-replayed'], 'true');
    assert.equal(after.body, done.body);
  });

  test('a 5xx releases the key so that a retry runs again', async () => {
    state.failNextCall();
    const failed = await post('key-5xx', { name: 'Retry me' });
    assert.equal(failed.statusCode, 500);
    assert.deepEqual(failed.json(), { message: 'An unexpected error occurred.', code: 'internal_error' });
    assert.equal((await keysStored()).filter((k) => k.key === 'key-5xx').length, 0, 'the key was deleted');

    const count = state.created.length;
    const retry = await post('key-5xx', { name: 'Retry me' });
    assert.equal(retry.statusCode, 201);
    assert.equal(retry.headers['idempotent-replayed'], undefined);
    assert.equal(state.created.length, count + 1, 'the retry ran');
  });

  test('a 4xx outcome of the handler is stored and replayed like a success', async () => {
    const first = await post('key-409', { name: 'Clash', conflict: true });
    assert.equal(first.statusCode, 409);
    assert.equal(first.json().code, 'conflict');
    const again = await post('key-409', { name: 'Clash', conflict: true });
    assert.equal(again.statusCode, 409);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.json(), { message: 'That thing conflicts.', code: 'conflict' });
  });

  test('a request rejected by validation reserves nothing', async () => {
    const invalid = await post('key-invalid', { name: '' });
    assert.equal(invalid.statusCode, 422);
    assert.equal(invalid.json().code, 'validation_failed');
    const valid = await post('key-invalid', { name: 'Fixed' });
    assert.equal(valid.statusCode, 201, 'the corrected request may use the same key');
  });

  test('a key of up to 255 characters is accepted; longer or empty ones are a 422 on Idempotency-Key', async () => {
    assert.equal((await post('k'.repeat(255), { name: 'Long key' })).statusCode, 201);
    for (const key of ['k'.repeat(256), '']) {
      const res = await post(key, { name: 'Too long' });
      assert.equal(res.statusCode, 422, `key of length ${key.length}`);
      const body = res.json();
      assert.equal(body.code, 'validation_failed');
      assert.ok(Array.isArray(body.errors['Idempotency-Key']) && body.errors['Idempotency-Key'].length === 1);
    }
  });

  test('without a key nothing is stored and every POST runs', async () => {
    const before = (await keysStored()).length;
    const count = state.created.length;
    await post(null, { name: 'No key' });
    await post(null, { name: 'No key' });
    assert.equal(state.created.length, count + 2);
    assert.equal((await keysStored()).length, before);
  });

  test('an unauthenticated POST with a key is a 401 and reserves nothing', async () => {
    const before = (await keysStored()).length;
    const res = await http.inject({
      method: 'POST',
      url: '/api/v1/things',
      headers: { 'idempotency-key': 'anon' },
      payload: { name: 'x' },
    });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().code, 'unauthenticated');
    assert.equal((await keysStored()).length, before);
  });

  test('the stored row keeps the outcome for 24 hours; the token secret is not part of it', async () => {
    const res = await post('key-row', { name: 'Row' });
    const row = (await keysStored()).find((k) => k.key === 'key-row');
    assert.ok(row);
    assert.equal(row.state, 'completed');
    assert.equal(row.response_status, 201);
    assert.equal(row.response_body, res.body);
    assert.deepEqual(JSON.parse(row.response_headers ?? '{}'), {
      'content-type': res.headers['content-type'],
      location: res.headers.location,
    });
    assert.equal(Date.parse(row.expires_at) - Date.parse(row.created_at), IDEMPOTENCY_TTL_MS);
    assert.ok(!JSON.stringify(row).includes(token));
  });

  test('a reservation left behind by a crashed process blocks retries only until its lease ends', async () => {
    // A service of its own reserves the key and never finishes, as a process that died mid-request.
    const crashed = createIdempotencyService({ keys: createIdempotencyRepository(platform.database.db), clock });
    const tokenId = (await platform.tokens.list()).find((t) => t.name === 'a')?.id ?? 0;
    // The orphan must carry the retry's request hash; a real request with another key records it.
    await post('key-hash-probe', { name: 'Orphan' });
    const hash = (await keysStored()).find((k) => k.key === 'key-hash-probe')?.request_hash ?? '';
    assert.equal((await crashed.begin({ tokenId, key: 'key-orphan', requestHash: hash })).kind, 'proceed');

    const blocked = await post('key-orphan', { name: 'Orphan' });
    assert.equal(blocked.statusCode, 409);
    assert.equal(blocked.json().code, 'idempotency_key_in_use');

    clock.advance(IN_PROGRESS_LEASE_MS + 1000);
    const count = state.created.length;
    const recovered = await post('key-orphan', { name: 'Orphan' });
    assert.equal(recovered.statusCode, 201);
    assert.equal(state.created.length, count + 1, 'the retry ran after the lease');
  });

  test('after 24 hours a key is forgotten: the same key runs a new request', async () => {
    await post('key-expiry', { name: 'Day one' });
    clock.advance(IDEMPOTENCY_TTL_MS + 1000);
    const next = await post('key-expiry', { name: 'Day two' });
    assert.equal(next.statusCode, 201, 'an expired key is replaced, not a 422');
    assert.equal(next.json().data.name, 'Day two');
    const again = await post('key-expiry', { name: 'Day two' });
    assert.equal(again.headers['idempotent-replayed'], 'true', 'the new request is now the one replayed');
  });

  test('prune(now) deletes exactly the keys past their 24 hours', async () => {
    const service = createIdempotencyService({ keys: createIdempotencyRepository(platform.database.db), clock });
    await post('key-prune-old', { name: 'Old' });
    clock.advance(IDEMPOTENCY_TTL_MS / 2);
    await post('key-prune-new', { name: 'New' });
    clock.advance(IDEMPOTENCY_TTL_MS / 2 + 1000);
    const before = await keysStored();
    const expired = before.filter((k) => Date.parse(k.expires_at) <= clock.now().getTime());
    assert.ok(expired.some((k) => k.key === 'key-prune-old'));
    assert.equal(await service.prune(clock.now()), expired.length);
    const left = (await keysStored()).map((k) => k.key).sort();
    assert.deepEqual(
      left,
      before
        .filter((k) => !expired.includes(k))
        .map((k) => k.key)
        .sort(),
    );
    assert.ok(left.includes('key-prune-new'));
    assert.equal(await service.prune(clock.now()), 0, 'nothing left to prune');
  });
  const saved = async (name: string) =>
    (await platform.database.db.selectFrom('runtime_state').select('key').where('key', '=', `saved:${name}`).execute()).length;
  const keyRow = async (key: string) => (await keysStored()).find((k) => k.key === key);

  test('a request notes on its key, in the commit of its changes, that it made them; a rolled-back one notes nothing', async () => {
    const made = await post('key-commit', { name: 'commit-1' }, { url: '/api/v1/saved' });
    assert.equal(made.statusCode, 201, made.body);
    const row = await keyRow('key-commit');
    assert.equal(row?.state, 'completed');
    assert.ok(row?.committed_at, 'the commit noted itself on the key');
    assert.equal(await saved('commit-1'), 1);

    const refused = await post('key-rollback', { name: 'rollback-1' }, { url: '/api/v1/saved/rolled-back' });
    assert.equal(refused.statusCode, 409, refused.body);
    assert.equal(refused.json().code, 'conflict', refused.body);
    const refusedRow = await keyRow('key-rollback');
    assert.equal(refusedRow?.state, 'completed', 'the 409 is kept for replay');
    assert.equal(refusedRow?.committed_at, null, 'the note rolled back with the transaction');
    assert.equal(await saved('rollback-1'), 0);

    await post('key-no-db', { name: 'No database' });
    assert.equal((await keyRow('key-no-db'))?.committed_at, null, 'a request that commits nothing notes nothing');
  });

  test('a real endpoint notes its commit too (POST /users)', async () => {
    const email = `idem-${Date.now()}@example.org`;
    const res = await post('key-user', { name: 'Ada Idem', email }, { url: '/api/v1/users', as: otherToken });
    assert.equal(res.statusCode, 201, res.body);
    assert.ok((await keyRow('key-user'))?.committed_at);
  });

  test('a process that stopped between its commit and its response: the retry is a 409 idempotency_key_answer_lost, not a second run', async () => {
    const first = await post('key-stopped', { name: 'stopped-1' }, { url: '/api/v1/saved' });
    assert.equal(first.statusCode, 201, first.body);
    // The key as a process leaves it when it stops after its commit and before recording its
    // response: still in progress, with the note its commit wrote.
    await platform.database.db
      .updateTable('idempotency_keys')
      .set({ state: 'in_progress', response_status: null, response_headers: null, response_body: null })
      .where('key', '=', 'key-stopped')
      .execute();
    assert.ok((await keyRow('key-stopped'))?.committed_at);

    const during = await post('key-stopped', { name: 'stopped-1' }, { url: '/api/v1/saved' });
    assert.equal(during.statusCode, 409);
    assert.equal(during.json().code, 'idempotency_key_in_use', 'within the lease the first request may still be running');

    clock.advance(IN_PROGRESS_LEASE_MS + 1000);
    for (let attempt = 0; attempt < 2; attempt++) {
      const retry = await post('key-stopped', { name: 'stopped-1' }, { url: '/api/v1/saved' });
      assert.equal(retry.statusCode, 409, retry.body);
      assert.equal(retry.json().code, 'idempotency_key_answer_lost');
      assert.equal(typeof retry.json().message, 'string');
    }
    assert.equal(await saved('stopped-1'), 1, 'the change was made once');
    assert.equal((await keyRow('key-stopped'))?.state, 'unanswered');
  });

  test('a server error after the commit keeps the key: the retry is a 409 idempotency_key_answer_lost, not a second run', async () => {
    const failed = await post('key-failed-after', { name: 'failed-after-1' }, { url: '/api/v1/saved/then-failed' });
    assert.equal(failed.statusCode, 500);
    assert.equal(failed.json().code, 'internal_error');
    assert.equal(await saved('failed-after-1'), 1);
    const row = await keyRow('key-failed-after');
    assert.equal(row?.state, 'unanswered');
    assert.ok(row?.committed_at);

    const retry = await post('key-failed-after', { name: 'failed-after-1' }, { url: '/api/v1/saved/then-failed' });
    assert.equal(retry.statusCode, 409, retry.body);
    assert.equal(retry.json().code, 'idempotency_key_answer_lost');
    assert.equal(await saved('failed-after-1'), 1, 'the retry did not run');

    const other = await post('key-failed-after', { name: 'something else' }, { url: '/api/v1/saved/then-failed' });
    assert.equal(other.json().code, 'idempotency_key_reused', 'another body under the key is still a 422');
  });

  test('a reservation left by a stopped process that committed nothing is taken over after its lease and runs', async () => {
    await post('key-probe-saved', { name: 'orphan-1' }, { url: '/api/v1/saved' });
    const probe = await keyRow('key-probe-saved');
    assert.ok(probe);
    const crashed = createIdempotencyService({ keys: createIdempotencyRepository(platform.database.db), clock });
    assert.equal(
      (await crashed.begin({ tokenId: probe.token_id, key: 'key-orphan-saved', requestHash: probe.request_hash })).kind,
      'proceed',
    );
    // The orphan's hash is the probe's request, so the retry must send the same path and body.
    clock.advance(IN_PROGRESS_LEASE_MS + 1000);
    await platform.database.db.deleteFrom('runtime_state').where('key', '=', 'saved:orphan-1').execute();
    const recovered = await post('key-orphan-saved', { name: 'orphan-1' }, { url: '/api/v1/saved' });
    assert.equal(recovered.statusCode, 201, recovered.body);
    assert.equal(await saved('orphan-1'), 1);
  });
});
