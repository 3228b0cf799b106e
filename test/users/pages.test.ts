import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/database.ts';
import { outsideWrites } from '../support/database.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

// GET /users reads a page's window from the staff's index of its order (migration 0029), then the
// page's rows by id: every page must be exactly what sorting every staff user gives.
describe('GET /users: pages read from the staff indexes of each order', () => {
  let app: TestApp;
  let make: Fixtures;

  before(async () => {
    app = await createTestApp();
    make = fixtures(app.platform);
    const statuses = ['active', 'invited', 'suspended', 'archived', 'draft'];
    for (let i = 0; i < 17; i++) await make.staff({ name: `${unique('Staff')} ${i % 4}`, status: statuses[i % statuses.length] as string });
  });

  const everyStaff = async (status: string | undefined, sort: string, direction: 'asc' | 'desc') => {
    let query = app.platform.database.db.selectFrom('users').select('users.id').where(sql<boolean>`users.is_admin`);
    if (status) query = query.where('users.status', '=', status);
    const rows = await query
      .orderBy(sql.ref(`users.${sort}`), direction)
      .orderBy('users.id', direction)
      .execute();
    return rows.map((r) => Number(r.id));
  };

  test('every page of every order, status and direction is the sorted list’s slice, with its total', async () => {
    for (const status of [undefined, 'active', 'suspended']) {
      for (const sort of ['id', 'name', 'email', 'created_at', 'updated_at']) {
        const token = await app.token(['users:read']);
        for (const direction of ['asc', 'desc'] as const) {
          // Other test files share the database on PostgreSQL: checked again when one wrote meanwhile.
          for (let attempt = 1; ; attempt++) {
            const before = await outsideWrites(app.platform.database);
            const all = await everyStaff(status, sort, direction);
            const perPage = 4;
            const last = Math.max(1, Math.ceil(all.length / perPage));
            const pages: { query: string; ids: number[]; total: number; want: number[] }[] = [];
            for (const page of [1, 2, Math.ceil(last / 2), last, last + 1]) {
              const query = `sort=${sort}&direction=${direction}&per_page=${perPage}&page=${page}${status ? `&status=${status}` : ''}`;
              const res = await app.http.inject({ method: 'GET', url: `/api/v1/users?${query}`, headers: bearer(token) });
              assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
              const body = res.json() as { data: { id: number }[]; meta: { total: number } };
              pages.push({
                query,
                ids: body.data.map((r) => r.id),
                total: body.meta.total,
                want: all.slice((page - 1) * perPage, page * perPage),
              });
            }
            if (before !== (await outsideWrites(app.platform.database)) && attempt < 30) continue;
            for (const page of pages) {
              assert.equal(page.total, all.length, `${page.query}: total`);
              assert.deepEqual(page.ids, page.want, `${page.query}: the page`);
            }
            break;
          }
        }
      }
    }
  });

  test('a page and its total, kept per version of the database, follow every write, by this process or another', async () => {
    const token = await app.token(['users:read']);
    const list = async (query: string) => {
      const res = await app.http.inject({ method: 'GET', url: `/api/v1/users?${query}`, headers: bearer(token) });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as { data: { id: number; status: string }[]; meta: { total: number } };
      return { ids: body.data.map((r) => r.id), total: body.meta.total };
    };
    const query = 'status=suspended&sort=id&direction=desc&per_page=50';
    const before = await list(query);
    assert.deepEqual(await list(query), before, 'asked again without a write: the same page');

    // A new suspended staff user, written by this process: first on the page, and counted.
    const added = await make.staff({ name: unique('Kept'), status: 'suspended' });
    const withAdded = await list(query);
    assert.equal(withAdded.total, before.total + 1);
    assert.equal(withAdded.ids[0], added.id);

    // Written through another connection, as another process would: it leaves the list.
    const other = openDatabase(app.platform.database.url);
    try {
      await other.db.updateTable('users').set({ status: 'active' }).where('id', '=', added.id).execute();
    } finally {
      await other.close();
    }
    const after = await list(query);
    assert.equal(after.total, before.total);
    assert.equal(after.ids.includes(added.id), false);
  });
});
