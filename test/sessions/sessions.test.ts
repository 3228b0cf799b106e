import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { fixedClock } from '../../src/platform/clock.ts';
import { assertError } from '../support/errors.ts';
import { type Fixtures, fixtures } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

const NOW = '2027-01-05T12:00:00.000Z';

describe('GET /courses/{course}/sessions[/{session}]', () => {
  const clock = fixedClock(NOW);
  let app: TestApp;
  let f: Fixtures;
  let token: string;
  let course: { id: number; slug: string };
  let other: { id: number; slug: string };
  const get = (url: string, secret = token) => app.http.inject({ method: 'GET', url, headers: bearer(secret) });
  const session = async (overrides: Parameters<Fixtures['session']>[0] = {}) => {
    const row = await f.session({ course_id: course.id, ...overrides });
    const res = await get(`/api/v1/courses/${course.slug}/sessions/${row.id}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };

  before(async () => {
    app = await createTestApp({ clock });
    f = fixtures(app.platform);
    token = await app.token(['courses:read']);
    course = await f.course({ slug: 'first-aid' });
    other = await f.course({ slug: 'fire-safety' });
  });

  test('lists the sessions of one course only, with every field, paginated and sortable', async () => {
    const a = await f.session({
      course_id: course.id,
      starts_on: '2027-03-01',
      ends_on: '2027-03-05',
      updated_at: '2027-01-01T00:00:00.000Z',
    });
    const b = await f.session({
      course_id: course.id,
      starts_on: '2027-02-01',
      ends_on: '2027-02-05',
      updated_at: '2027-01-03T00:00:00.000Z',
    });
    await f.session({ course_id: other.id });
    const res = await get(`/api/v1/courses/${course.slug}/sessions`);
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.deepEqual(
      body.data.map((s: { id: number }) => s.id),
      [a.id, b.id],
    );
    assert.equal(body.meta.total, 2);
    const first = body.data[0];
    assert.deepEqual(Object.keys(first), [
      'id',
      'course_id',
      'course',
      'name',
      'workflow_state',
      'max_participants',
      'waitlist_enabled',
      'registration_opens_at',
      'registration_closes_at',
      'registration_status',
      'registration_open',
      'starts_on',
      'ends_on',
      'instructor_name',
      'confirmed_count',
      'waitlisted_count',
      'available_seats',
      'capacity_status',
      'completion_rate',
      'created_at',
      'updated_at',
    ]);
    assert.equal(first.course, 'first-aid');
    assert.equal(first.course_id, course.id);
    assert.equal(first.starts_on, '2027-03-01');
    assert.equal(first.instructor_name, 'Ada Lovelace');
    assert.equal(first.waitlist_enabled, true);

    const ids = async (query: string) =>
      (await get(`/api/v1/courses/${course.slug}/sessions?${query}`)).json().data.map((s: { id: number }) => s.id);
    assert.deepEqual(await ids('sort=starts_on'), [b.id, a.id]);
    assert.deepEqual(await ids('sort=starts_on&direction=desc'), [a.id, b.id]);
    assert.deepEqual(await ids('sort=id&direction=desc'), [b.id, a.id]);
    assert.deepEqual(await ids('per_page=1&page=2'), [b.id]);
    assert.deepEqual(await ids('updated_since=2027-01-02T00:00:00Z'), [b.id]);
    for (const query of ['sort=name', 'direction=up', 'per_page=-1', 'updated_since=soon']) {
      assertError(await get(`/api/v1/courses/${course.slug}/sessions?${query}`), 422, 'validation_failed', query);
    }
  });

  test('an unknown or malformed course, a missing session and a session of another course are the same 404', async () => {
    const mine = await f.session({ course_id: course.id });
    const theirs = await f.session({ course_id: other.id });
    const missing = await get('/api/v1/courses/no-such-course/sessions');
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().code, 'not_found');
    for (const url of [
      '/api/v1/courses/First-Aid/sessions',
      `/api/v1/courses/first-aid/sessions/${theirs.id}`,
      `/api/v1/courses/fire-safety/sessions/${mine.id}`,
      '/api/v1/courses/first-aid/sessions/999999',
      '/api/v1/courses/first-aid/sessions/07',
      '/api/v1/courses/first-aid/sessions/abc',
      `/api/v1/courses/first_aid/sessions/${mine.id}`,
    ]) {
      const res = await get(url);
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().code, 'not_found', url);
      assert.equal(res.body, missing.body, url);
    }
    assert.equal((await get(`/api/v1/courses/fire-safety/sessions/${theirs.id}`)).statusCode, 200);
  });

  test('need courses:read (401 without a token, 403 without the scope)', async () => {
    const row = await f.session({ course_id: course.id });
    for (const url of [`/api/v1/courses/${course.slug}/sessions`, `/api/v1/courses/${course.slug}/sessions/${row.id}`]) {
      assertError(await app.http.inject({ method: 'GET', url }), 401, 'unauthenticated');
      assertError(await get(url, await app.token(['enrolments:read'])), 403, 'insufficient_scope');
    }
  });

  test('registration_status: not_open before the window and in draft/scheduled, open inside it, closed after it and later', async () => {
    const opensAt = '2027-01-05T12:00:00.000Z';
    const closesAt = '2027-01-05T12:00:00.001Z';
    const at = (t: string) => clock.set(t);
    try {
      const window = { registration_opens_at: opensAt, registration_closes_at: closesAt };
      const row = await f.session({ course_id: course.id, workflow_state: 'open_for_registration', ...window });
      const read = async () => (await get(`/api/v1/courses/${course.slug}/sessions/${row.id}`)).json().data;
      at('2027-01-05T11:59:59.999Z');
      assert.deepEqual([(await read()).registration_status, (await read()).registration_open], ['not_open', false]);
      at(opensAt);
      assert.deepEqual(
        [(await read()).registration_status, (await read()).registration_open],
        ['open', true],
        'the opening instant is inside',
      );
      at(closesAt);
      assert.deepEqual(
        [(await read()).registration_status, (await read()).registration_open],
        ['closed', false],
        'the closing instant is outside',
      );

      at(NOW);
      const expect = async (overrides: Parameters<Fixtures['session']>[0], status: string) =>
        assert.equal((await session(overrides)).registration_status, status, JSON.stringify(overrides));
      await expect({ workflow_state: 'open_for_registration' }, 'open');
      await expect({ workflow_state: 'open_for_registration', registration_opens_at: '2027-01-06T00:00:00.000Z' }, 'not_open');
      await expect({ workflow_state: 'open_for_registration', registration_closes_at: '2027-01-05T11:00:00.000Z' }, 'closed');
      // Before the workflow opens registration it is not open, even inside the window; after it, closed.
      await expect({ workflow_state: 'draft', registration_opens_at: '2027-01-01T00:00:00.000Z' }, 'not_open');
      await expect({ workflow_state: 'scheduled', registration_opens_at: '2027-01-01T00:00:00.000Z' }, 'not_open');
      for (const state of ['in_progress', 'completed', 'cancelled']) await expect({ workflow_state: state }, 'closed');
    } finally {
      at(NOW);
    }
  });

  test('available_seats and capacity_status at 0 and 1 seats, with and without a waitlist', async () => {
    const seats = async (overrides: Parameters<Fixtures['session']>[0]) => {
      const s = await session(overrides);
      return [s.available_seats, s.capacity_status];
    };
    assert.deepEqual(await seats({ max_participants: 1, confirmed_count: 0 }), [1, 'available']);
    assert.deepEqual(await seats({ max_participants: 1, confirmed_count: 1, waitlist_enabled: true }), [0, 'waitlist']);
    assert.deepEqual(await seats({ max_participants: 1, confirmed_count: 1, waitlist_enabled: false }), [0, 'full']);
    assert.deepEqual(await seats({ max_participants: 0, waitlist_enabled: true }), [0, 'waitlist']);
    assert.deepEqual(await seats({ max_participants: 0, waitlist_enabled: false }), [0, 'full']);
    // Never below zero, even if the seats were reduced under the confirmed count by hand.
    assert.deepEqual(await seats({ max_participants: 2, confirmed_count: 3, waitlist_enabled: false }), [0, 'full']);
  });

  test('completion_rate: null without confirmed enrolments, else the completed share with one decimal', async () => {
    const rate = async (confirmed: number, completed: number) =>
      (await session({ max_participants: 10, confirmed_count: confirmed, completed_count: completed })).completion_rate;
    assert.equal(await rate(0, 0), null);
    assert.equal(await rate(3, 0), 0);
    assert.equal(await rate(3, 1), 33.3);
    assert.equal(await rate(3, 2), 66.7);
    assert.equal(await rate(8, 1), 12.5);
    assert.equal(await rate(3, 3), 100);
  });
});
