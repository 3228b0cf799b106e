import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Fixtures, fixtures } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

// On PostgreSQL the certificates of a student and the enrolments of a student, a session or a status
// are read with their total in one prepared statement, the page size written into it and no OFFSET on
// the first page (src/db/list.ts, ADR 0015). Every page, page size and empty page must read as the
// separate statements did, and as SQLite reads them.
describe('lists read with their total in one statement', () => {
  let app: TestApp;
  let make: Fixtures;
  let token: string;

  const page = async (url: string) => {
    const res = await app.http.inject({ method: 'GET', url: `/api/v1${url}`, headers: bearer(token) });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    const body = res.json() as { data: { id: number }[]; meta: { total: number; last_page: number } };
    return { ids: body.data.map((row) => row.id), total: body.meta.total, last: body.meta.last_page };
  };

  before(async () => {
    app = await createTestApp();
    make = fixtures(app.platform);
    token = await app.token(['certificates:read', 'enrolments:read']);
  });

  test('the certificates of a student: first page, later pages, other sizes, past the end, none at all', async () => {
    const student = await make.student();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const enrolment = await make.enrolment({ user_id: student.id, completion_outcome: 'passed' });
      ids.push((await make.certificate({ enrolment_id: enrolment.id })).id);
    }
    const list = (query: string) => page(`/certificates?student_id=${student.id}&${query}`);
    assert.deepEqual(await list(''), { ids, total: 5, last: 1 });
    assert.deepEqual(await list('per_page=2'), { ids: ids.slice(0, 2), total: 5, last: 3 });
    assert.deepEqual(await list('per_page=2&page=2'), { ids: ids.slice(2, 4), total: 5, last: 3 });
    assert.deepEqual(await list('per_page=2&page=3'), { ids: ids.slice(4), total: 5, last: 3 });
    assert.deepEqual((await list('per_page=2&page=4')).ids, []);
    assert.equal((await list('per_page=2&page=4')).total, 5, 'a page past the end keeps the total');
    assert.deepEqual(await list('per_page=3&direction=desc'), { ids: [...ids].reverse().slice(0, 3), total: 5, last: 2 });
    const nobody = await make.student();
    assert.deepEqual((await page(`/certificates?student_id=${nobody.id}`)).ids, []);
    assert.equal((await page(`/certificates?student_id=${nobody.id}`)).total, 0);
  });

  test('the enrolments of a student and of a status, whose total comes from the session counters', async () => {
    const student = await make.student();
    const mine: number[] = [];
    for (let i = 0; i < 3; i++) mine.push((await make.enrolment({ user_id: student.id })).id);
    assert.deepEqual(await page(`/enrolments?student_id=${student.id}&per_page=2`), { ids: mine.slice(0, 2), total: 3, last: 2 });
    assert.deepEqual(await page(`/enrolments?student_id=${student.id}&per_page=2&page=2`), { ids: mine.slice(2), total: 3, last: 2 });
    assert.deepEqual(await page(`/enrolments?student_id=${student.id}&status=cancelled`), { ids: [], total: 0, last: 1 });

    // The waitlisted total is the sum of the sessions' counters (the fixture rows do not move them).
    const session = await make.session({ waitlisted_count: 2 });
    const waiting = [
      (await make.enrolment({ session_id: session.id, status: 'waitlisted', waitlist_position: 1 })).id,
      (await make.enrolment({ session_id: session.id, status: 'waitlisted', waitlist_position: 2 })).id,
    ];
    const all = await page('/enrolments?status=waitlisted&per_page=100');
    assert.ok(waiting.every((id) => all.ids.includes(id)));
    const counted = await app.platform.database.db
      .selectFrom('training_sessions')
      .select((eb) => eb.fn.sum<number | string>('waitlisted_count').as('total'))
      .executeTakeFirstOrThrow();
    assert.equal(all.total, Number(counted.total));
    const last = await page(`/enrolments?status=waitlisted&per_page=1&page=${all.total + 1}`);
    assert.deepEqual(last.ids, []);
    assert.equal(last.total, all.total);
  });
});
