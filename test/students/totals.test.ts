import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Database, openDatabase } from '../../src/db/database.ts';
import { keptTotals } from '../../src/db/totals.ts';
import { outsideWrites } from '../support/database.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

// The students list keeps its total and page while the database is unchanged (src/db/totals.ts) and reads a
// page in id order from the search index in that order on SQLite (matchesInIdOrder): both must give
// exactly what counting and sorting every match gives.
describe('GET /students: kept totals and pages in id order', () => {
  let app: TestApp;
  let make: Fixtures;
  let token: string;
  let other: Database;

  const list = async (query: string) => {
    const res = await app.http.inject({ method: 'GET', url: `/api/v1/students?${query}`, headers: bearer(token) });
    assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
    return res.json() as { data: { id: number; name: string }[]; meta: { total: number } };
  };

  before(async () => {
    app = await createTestApp();
    make = fixtures(app.platform);
    token = await app.token(['students:read']);
    // A second connection (pool), as another process would write.
    other = openDatabase(app.platform.database.url);
  });

  after(async () => {
    await other.close();
  });

  const snapshot = () => outsideWrites(app.platform.database);

  test('a total is counted once while nothing is written, and again after any write, whoever makes it', async () => {
    const tag = unique('kept').toLowerCase().replace(/-/g, '');
    const course = await make.course();
    const first = await make.student({ name: `${tag} One` }, { courseId: course.id });
    await make.student({ name: `${tag} Two` }, { courseId: course.id });
    await make.student({ name: `${tag} Three` }, { courseId: course.id });
    const totals = keptTotals(app.platform.database.db, app.platform.database.dialect);
    const total = async () => (await list(`search=${tag}`)).meta.total;

    // On PostgreSQL the version is the server's snapshot, which a write to any of its databases moves
    // (other test files write meanwhile): the reads are repeated until no write fell between them.
    let counted = 0;
    for (let attempt = 1; ; attempt++) {
      const before = await snapshot();
      assert.equal(await total(), 3);
      counted = totals.stats.counted;
      const { pagesKept, pagesRead } = totals.stats;
      assert.equal(await total(), 3);
      assert.equal(await total(), 3);
      if (before !== (await snapshot()) && attempt < 50) continue;
      assert.equal(totals.stats.counted, counted, 'nothing was written: not counted again');
      assert.equal(totals.stats.pagesRead, pagesRead, 'nothing was written: the page is not read again');
      assert.equal(totals.stats.pagesKept, pagesKept + 2);
      break;
    }

    // Written by this process.
    await make.student({ name: `${tag} Four` }, { courseId: course.id });
    assert.equal(await total(), 4);
    assert.equal(totals.stats.counted, counted + 1);

    // Written through another connection: renamed out of the match, then a new application.
    await other.db
      .updateTable('users')
      .set({ name: 'Renamed Elsewhere', email: `renamed.${first.id}@example.org` })
      .where('id', '=', first.id)
      .execute();
    const renamed = await list(`search=${tag}`);
    assert.equal(renamed.meta.total, 3);
    assert.ok(!renamed.data.some((student) => student.id === first.id), 'the kept page was read again: the renamed student is gone');
    const applicant = await other.db
      .insertInto('users')
      .values({
        name: `${tag} Five`,
        email: `${tag}.five@example.org`,
        status: 'active',
        is_admin: false,
        permissions: '[]',
        email_verified: false,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    assert.equal(await total(), 3, 'a user without an application is no student');
    const now = new Date().toISOString();
    await other.db
      .insertInto('course_applications')
      .values({ user_id: applicant.id, course_id: course.id, source: 'api', created_at: now, updated_at: now })
      .execute();
    assert.equal(await total(), 4);

    // A rolled back write changes nothing, and the total stays exact.
    await assert.rejects(
      other.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('course_applications').where('user_id', '=', applicant.id).execute();
        throw new Error('rolled back');
      }),
      /rolled back/,
    );
    assert.equal(await total(), 4);
    assert.equal(await total(), 4);

    // A change that leaves the total as it was still gives a new page.
    await other.db
      .updateTable('users')
      .set({ name: `${tag} Renamed Five` })
      .where('id', '=', applicant.id)
      .execute();
    const after = await list(`search=${tag}`);
    assert.equal(after.meta.total, 4);
    assert.equal(after.data.find((student) => student.id === applicant.id)?.name, `${tag} Renamed Five`);
  });

  test('a word’s total is counted once for every order, direction and page of it', async () => {
    const tag = unique('orders').toLowerCase().replace(/-/g, '');
    const course = await make.course();
    for (const name of ['Ada', 'Bea', 'Cy', 'Di']) await make.student({ name: `${name} ${tag}` }, { courseId: course.id });
    const totals = keptTotals(app.platform.database.db, app.platform.database.dialect);
    for (let attempt = 1; ; attempt++) {
      const before = await snapshot();
      const counted = totals.stats.counted;
      const seen = new Set<string>();
      for (const sort of ['id', 'name', 'email', 'created_at', 'updated_at']) {
        for (const direction of ['asc', 'desc']) {
          for (const page of [1, 2]) {
            const answer = await list(`search=${tag}&sort=${sort}&direction=${direction}&per_page=3&page=${page}`);
            assert.equal(answer.meta.total, 4);
            assert.equal(answer.data.length, page === 1 ? 3 : 1);
            seen.add(answer.data.map((s) => s.id).join());
          }
        }
      }
      assert.ok(seen.size > 2, 'the orders gave different pages');
      if (before !== (await snapshot()) && attempt < 50) continue;
      assert.equal(totals.stats.counted, counted + 1, 'one count for the 20 pages, not one per order');
      break;
    }
  });

  test('requests that read their pages at one version after a write share one count', async () => {
    const tag = unique('herd').toLowerCase().replace(/-/g, '');
    const course = await make.course();
    await make.student({ name: `${tag} One` }, { courseId: course.id });
    await make.student({ name: `${tag} Two` }, { courseId: course.id });
    const totals = keptTotals(app.platform.database.db, app.platform.database.dialect);
    assert.equal((await list(`search=${tag}`)).meta.total, 2);
    for (let attempt = 1; ; attempt++) {
      // A write makes the kept total stale; eight requests then read their pages at one version.
      await make.student({ name: `${tag} More ${attempt}` }, { courseId: course.id });
      const before = await snapshot();
      const counted = totals.stats.counted;
      const pages = await Promise.all(Array.from({ length: 8 }, () => list(`search=${tag}`)));
      if (before !== (await snapshot()) && attempt < 50) continue;
      for (const page of pages) assert.equal(page.meta.total, 2 + attempt);
      assert.equal(totals.stats.counted, counted + 1, 'one count for the eight requests');
      break;
    }
  });

  test('kept pages are bounded: past 20,000 rows in all, the least recently read are read again', async () => {
    const { db, dialect } = app.platform.database;
    const totals = keptTotals(db, dialect);
    // A filter no row matches; the pages are made up, of 150 rows each: 134 of them hold 20,100 rows.
    const query = db.selectFrom('users').where('users.id', '=', -1);
    const reads = new Map<string, number>();
    const page = (window: string) =>
      totals.page(query, window, async () => {
        reads.set(window, (reads.get(window) ?? 0) + 1);
        return { items: new Array(150).fill(0), total: 0 };
      });
    for (let attempt = 1; ; attempt++) {
      const before = await snapshot();
      for (let i = 0; i < 150; i++) await page(`bound ${attempt} ${i}`);
      const first = reads.get(`bound ${attempt} 0`);
      const last = reads.get(`bound ${attempt} 149`);
      await page(`bound ${attempt} 149`);
      await page(`bound ${attempt} 0`);
      assert.equal(reads.get(`bound ${attempt} 0`), (first ?? 0) + 1, 'the first page was dropped: read again');
      if (before !== (await snapshot()) && attempt < 50) continue;
      assert.equal(reads.get(`bound ${attempt} 149`), last, 'the last page is still kept');
      break;
    }
  });

  test('pages in id order, both directions, skip staff and users without an application, and agree with the name order', async () => {
    const tag = unique('paged').toLowerCase().replace(/-/g, '');
    const course = await make.course();
    const students: number[] = [];
    for (let i = 0; i < 7; i++) {
      students.push((await make.student({ name: `${tag} Student ${i}`, email_verified: i % 2 === 0 }, { courseId: course.id })).id);
      if (i % 3 === 0) {
        await make.student({ name: `${tag} Staff ${i}`, is_admin: true }, { courseId: course.id });
        await make.user({ name: `${tag} Applicant-less ${i}` });
      }
    }
    const ids = async (query: string) => {
      const found: number[] = [];
      for (let page = 1; page <= 4; page++) {
        const body = await list(`search=${tag}&per_page=2&page=${page}&${query}`);
        assert.equal(body.meta.total, query.includes('status=verified') ? 4 : 7, query);
        found.push(...body.data.map((s) => s.id));
      }
      return found;
    };
    assert.deepEqual(await ids('sort=id'), students);
    assert.deepEqual(await ids('sort=id&direction=desc'), [...students].reverse());
    assert.deepEqual(
      await ids('sort=id&status=verified'),
      students.filter((_, i) => i % 2 === 0),
    );
    assert.deepEqual((await ids('sort=name')).sort(), [...students].sort());
    // Text that only part of the index lookup finds, then the whole text on the rows (the name's tail).
    const whole = (await list(`search=${encodeURIComponent(`${tag} student 3`)}`)).data.map((s) => s.id);
    assert.deepEqual(whole, [students[3]]);
  });
});
