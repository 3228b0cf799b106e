import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { assertError } from '../support/errors.ts';
import { type Fixtures, fixtures } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

describe('GET /enrolments and /enrolments/{enrolment}', () => {
  let app: TestApp;
  let f: Fixtures;
  let token: string;
  const rows: Record<string, { id: number; user_id: number; session_id: number }> = {};
  let alice: number;
  let bob: number;
  let courseA: number;
  let courseB: number;
  const get = (url: string, secret = token) => app.http.inject({ method: 'GET', url, headers: bearer(secret) });
  const ids = async (query: string) => {
    const res = await get(`/api/v1/enrolments?${query}`);
    assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
    return res.json().data.map((e: { id: number }) => e.id) as number[];
  };

  before(async () => {
    app = await createTestApp();
    f = fixtures(app.platform);
    token = await app.token(['enrolments:read']);
    courseA = (await f.course()).id;
    courseB = (await f.course()).id;
    const a1 = await f.session({ course_id: courseA });
    const a2 = await f.session({ course_id: courseA });
    const b1 = await f.session({ course_id: courseB });
    alice = (await f.student()).id;
    bob = (await f.student()).id;
    const at = (day: number) => `2027-01-0${day}T00:00:00.000Z`;
    rows.aliceA1 = await f.enrolment({ user_id: alice, session_id: a1.id, created_at: at(1), updated_at: at(4) });
    rows.bobA1 = await f.enrolment({
      user_id: bob,
      session_id: a1.id,
      status: 'waitlisted',
      waitlist_position: 1,
      confirmed_at: null,
      created_at: at(2),
      updated_at: at(2),
    });
    rows.aliceB1 = await f.enrolment({
      user_id: alice,
      session_id: b1.id,
      status: 'cancelled',
      cancelled_at: at(3),
      cancellation_reason: 'Moved',
      created_at: at(3),
      updated_at: at(3),
    });
    rows.bobA2 = await f.enrolment({
      user_id: bob,
      session_id: a2.id,
      completion_outcome: 'passed',
      completion_notes: 'Well done',
      completion_recorded_at: at(5),
      created_at: at(4),
      updated_at: at(5),
    });
  });

  test('lists every enrolment with its fields, in id order, paginated', async () => {
    const res = await get('/api/v1/enrolments');
    const body = res.json();
    assert.deepEqual(
      body.data.map((e: { id: number }) => e.id),
      [rows.aliceA1?.id, rows.bobA1?.id, rows.aliceB1?.id, rows.bobA2?.id],
    );
    assert.equal(body.meta.total, 4);
    const waitlisted = body.data[1];
    assert.deepEqual(waitlisted, {
      id: rows.bobA1?.id,
      student_id: bob,
      session_id: rows.bobA1?.session_id,
      course_id: courseA,
      status: 'waitlisted',
      waitlist_position: 1,
      confirmed_at: null,
      cancelled_at: null,
      cancellation_reason: null,
      completion_outcome: null,
      completion_notes: null,
      completion_recorded_at: null,
      created_at: '2027-01-02T00:00:00.000Z',
      updated_at: '2027-01-02T00:00:00.000Z',
    });
    assert.deepEqual(
      [body.data[3].completion_outcome, body.data[3].completion_notes, body.data[3].completion_recorded_at],
      ['passed', 'Well done', '2027-01-05T00:00:00.000Z'],
    );
    assert.deepEqual(await ids('per_page=3&page=2'), [rows.bobA2?.id]);
  });

  test('filters by student_id, course_id (through the session) and status, together too', async () => {
    assert.deepEqual(await ids(`student_id=${alice}`), [rows.aliceA1?.id, rows.aliceB1?.id]);
    assert.deepEqual(await ids(`course_id=${courseA}`), [rows.aliceA1?.id, rows.bobA1?.id, rows.bobA2?.id]);
    assert.deepEqual(await ids(`course_id=${courseB}`), [rows.aliceB1?.id]);
    assert.deepEqual(await ids('status=confirmed'), [rows.aliceA1?.id, rows.bobA2?.id]);
    assert.deepEqual(await ids('status=waitlisted'), [rows.bobA1?.id]);
    assert.deepEqual(await ids('status=cancelled'), [rows.aliceB1?.id]);
    assert.deepEqual(await ids(`student_id=${bob}&course_id=${courseA}&status=confirmed`), [rows.bobA2?.id]);
    assert.deepEqual(await ids('student_id=999999'), []);
    for (const [query, field] of [
      ['status=pending', 'status'],
      ['student_id=abc', 'student_id'],
      ['course_id=0', 'course_id'],
      // Past the largest id a database integer holds: refused here, not by the database.
      ['student_id=2147483648', 'student_id'],
      ['course_id=99999999999', 'course_id'],
      ['sort=status', 'sort'],
    ] as const) {
      const res = await get(`/api/v1/enrolments?${query}`);
      assert.equal(res.statusCode, 422, query);
      assert.equal(res.json().code, 'validation_failed', query);
      assert.ok(res.json().errors[field], `${query}: ${res.body}`);
    }
  });

  test('sorts by created_at and updated_at both ways; updated_since keeps what changed', async () => {
    assert.deepEqual(await ids('sort=created_at&direction=desc'), [rows.bobA2?.id, rows.aliceB1?.id, rows.bobA1?.id, rows.aliceA1?.id]);
    assert.deepEqual(await ids('sort=updated_at'), [rows.bobA1?.id, rows.aliceB1?.id, rows.aliceA1?.id, rows.bobA2?.id]);
    assert.deepEqual(await ids('sort=id&direction=desc&per_page=1'), [rows.bobA2?.id]);
    assert.deepEqual(await ids('updated_since=2027-01-04T00:00:00Z'), [rows.aliceA1?.id, rows.bobA2?.id]);
    assert.deepEqual(await ids('updated_since=2027-01-05T00:00:00.001Z'), []);
  });

  test('one enrolment by id; a missing or malformed id is a 404; enrolments:read is needed', async () => {
    const res = await get(`/api/v1/enrolments/${rows.aliceB1?.id}`);
    assert.equal(res.statusCode, 200);
    assert.deepEqual([res.json().data.status, res.json().data.cancellation_reason], ['cancelled', 'Moved']);
    const missing = await get('/api/v1/enrolments/999999');
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().code, 'not_found');
    for (const id of ['0', '-1', '1.0', 'abc', `0${rows.aliceA1?.id}`]) {
      const r = await get(`/api/v1/enrolments/${id}`);
      assert.equal(r.statusCode, 404, id);
      assert.equal(r.json().code, 'not_found', id);
      assert.equal(r.body, missing.body);
    }
    for (const url of ['/api/v1/enrolments', `/api/v1/enrolments/${rows.aliceA1?.id}`]) {
      assertError(await app.http.inject({ method: 'GET', url }), 401, 'unauthenticated');
      const wrong = await get(url, await app.token(['courses:read']));
      assert.equal(wrong.statusCode, 403);
      assert.equal(wrong.json().code, 'insufficient_scope');
      assert.match(String(wrong.headers['www-authenticate']), /scope="enrolments:read"/);
    }
  });
});
