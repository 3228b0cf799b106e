import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

// The list kit, through a list built on it (GET /tasks): sort keys as an enum, direction, ties broken
// by id, updated_since, and a 422 for a bad value of each.
describe('list kit (sort, direction, updated_since)', () => {
  let app: TestApp;
  let token: string;
  const types = async (query: string) => {
    const res = await app.http.inject({ method: 'GET', url: `/api/v1/tasks?${query}`, headers: bearer(token) });
    assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
    return res.json().data.map((t: { task_type: string }) => t.task_type) as string[];
  };

  before(async () => {
    app = await createTestApp();
    token = await app.token(['tasks:read']);
  });

  test('sort and direction order the list; the default is id ascending', async () => {
    const byId = await types('');
    const ids = (await app.platform.database.db.selectFrom('scheduled_tasks').select(['id', 'task_type']).orderBy('id').execute()).map(
      (t) => t.task_type,
    );
    assert.deepEqual(byId, ids);
    assert.deepEqual(await types('sort=id&direction=desc'), [...ids].reverse());
    assert.deepEqual(await types('sort=task_type'), [...ids].sort());
    assert.deepEqual(await types('sort=task_type&direction=desc'), [...ids].sort().reverse());
  });

  test('ties are broken by id in the same direction', async () => {
    // Every task has the same last_run_at (null): the order falls back to id.
    const ids = (await app.platform.database.db.selectFrom('scheduled_tasks').select('task_type').orderBy('id').execute()).map(
      (t) => t.task_type,
    );
    assert.deepEqual(await types('sort=last_run_at'), ids);
    assert.deepEqual(await types('sort=last_run_at&direction=desc'), [...ids].reverse());
  });

  test('updated_since keeps only what changed at or after the time', async () => {
    const db = app.platform.database.db;
    await db.updateTable('scheduled_tasks').set({ updated_at: '2026-01-01T00:00:00.000Z' }).execute();
    await db
      .updateTable('scheduled_tasks')
      .set({ updated_at: '2026-06-01T00:00:00.000Z' })
      .where('task_type', '=', 'jobs.prune_failed')
      .execute();
    assert.deepEqual(await types('updated_since=2026-06-01T00:00:00Z'), ['jobs.prune_failed']);
    assert.deepEqual(await types('updated_since=2026-06-01T00:00:00.001Z'), []);
    assert.equal(
      (await types('updated_since=2025-12-31T23:00:00%2B00:00')).length,
      (await db.selectFrom('scheduled_tasks').select('id').execute()).length,
    );
  });

  test('an updated_since on a leap second (RFC 3339 allows :60) is the instant a second after :59, not a 500', async () => {
    for (const since of ['2016-12-31T23:59:60Z', '2016-12-31T23:59:60.5Z', '2017-01-01T00:59:60+01:00']) {
      const res = await app.http.inject({
        method: 'GET',
        url: `/api/v1/tasks?updated_since=${encodeURIComponent(since)}`,
        headers: bearer(token),
      });
      assert.equal(res.statusCode, 200, `${since}: ${res.body}`);
      // Every task was written after 2017: all of them are listed.
      const all = await app.http.inject({ method: 'GET', url: '/api/v1/tasks', headers: bearer(token) });
      assert.equal(res.json().meta.total, all.json().meta.total);
    }
  });

  test('an unknown sort key, direction or updated_since is a 422 naming the parameter', async () => {
    for (const [query, field] of [
      ['sort=name', 'sort'],
      ['direction=up', 'direction'],
      ['updated_since=yesterday', 'updated_since'],
      ['enabled=maybe', 'enabled'],
    ] as const) {
      const res = await app.http.inject({ method: 'GET', url: `/api/v1/tasks?${query}`, headers: bearer(token) });
      assert.equal(res.statusCode, 422, query);
      assert.equal(res.json().code, 'validation_failed');
      assert.ok(res.json().errors[field], `${query}: ${res.body}`);
    }
  });
});
