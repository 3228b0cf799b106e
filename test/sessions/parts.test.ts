import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { MeetingCreate } from '../../src/modules/meetings/schemas.ts';
import { ResourceCreate } from '../../src/modules/resources/schemas.ts';
import { fixedClock } from '../../src/platform/clock.ts';
import { operatorContext } from '../../src/platform/context.ts';
import { AppError } from '../../src/platform/errors.ts';
import { endOfDay, localDate, startOfDay } from '../../src/platform/time.ts';
import { validateInput } from '../../src/platform/validation.ts';
import { assertError } from '../support/errors.ts';
import { type Fixtures, fixtures } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

const NOW = '2027-01-05T12:00:00.000Z';

async function refused(promise: Promise<unknown>, status: number, field?: string): Promise<AppError> {
  const error = await promise.then(
    () => assert.fail(`expected a ${status}`),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof AppError, String(error));
  assert.equal(error.status, status, error.message);
  if (field) assert.ok(error.details?.[field], `errors keyed by ${field}: ${JSON.stringify(error.details)}`);
  return error;
}

describe("a session's assessments, learning resources and meetings", () => {
  const clock = fixedClock(NOW);
  let app: TestApp;
  let f: Fixtures;
  let token: string;
  let base: string;
  let otherBase: string;
  let sessionId: number;
  let otherSessionId: number;
  const get = (url: string, secret = token) => app.http.inject({ method: 'GET', url, headers: bearer(secret) });
  const ids = async (url: string) => {
    const res = await get(url);
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return res.json().data.map((x: { id: number }) => x.id) as number[];
  };

  before(async () => {
    app = await createTestApp({ clock });
    f = fixtures(app.platform);
    token = await app.token(['courses:read']);
    const course = await f.course({ slug: 'forklift' });
    const session = await f.session({ course_id: course.id });
    const sibling = await f.session({ course_id: course.id });
    sessionId = session.id;
    otherSessionId = sibling.id;
    base = `/api/v1/courses/forklift/sessions/${session.id}`;
    otherBase = `/api/v1/courses/forklift/sessions/${sibling.id}`;
  });

  test('assessments: listed per session, sorted, paginated, updated_since; one read; 404 across sessions and courses', async () => {
    const a = await f.assessment({
      session_id: sessionId,
      title: 'Theory',
      due_at: '2027-01-15T10:00:00.000Z',
      updated_at: '2027-01-01T00:00:00.000Z',
    });
    const b = await f.assessment({
      session_id: sessionId,
      title: 'Practice',
      kind: 'practical',
      due_at: '2027-01-12T10:00:00.000Z',
      updated_at: '2027-01-04T00:00:00.000Z',
    });
    const elsewhere = await f.assessment({ session_id: otherSessionId });
    assert.deepEqual(await ids(`${base}/assessments`), [a.id, b.id]);
    assert.deepEqual(await ids(`${base}/assessments?sort=due_at`), [b.id, a.id]);
    assert.deepEqual(await ids(`${base}/assessments?sort=title&direction=desc`), [a.id, b.id]);
    assert.deepEqual(await ids(`${base}/assessments?per_page=1&page=2`), [b.id]);
    assert.deepEqual(await ids(`${base}/assessments?updated_since=2027-01-02T00:00:00Z`), [b.id]);
    assertError(await get(`${base}/assessments?sort=kind`), 422, 'validation_failed');

    const one = (await get(`${base}/assessments/${b.id}`)).json().data;
    assert.deepEqual(one, {
      id: b.id,
      session_id: sessionId,
      title: 'Practice',
      kind: 'practical',
      due_at: '2027-01-12T10:00:00.000Z',
      max_score: 100,
      created_at: b.created_at,
      updated_at: '2027-01-04T00:00:00.000Z',
    });
    for (const url of [
      `${base}/assessments/${elsewhere.id}`,
      `${base}/assessments/999999`,
      `/api/v1/courses/welding/sessions/${sessionId}/assessments/${a.id}`,
    ]) {
      assertError(await get(url), 404, 'not_found', url);
    }
    assertError(await get('/api/v1/courses/forklift/sessions/999999/assessments'), 404, 'not_found');
  });

  test('resources: only published ones are listed; a draft is the same 404 as a missing id until it is published', async () => {
    const published = await f.resource({ session_id: sessionId, title: 'Handbook' });
    const draft = await f.resource({ session_id: sessionId, title: 'Exam answers', status: 'draft', published_at: null });
    await f.resource({ session_id: otherSessionId });
    assert.deepEqual(await ids(`${base}/resources`), [published.id]);
    assert.equal((await get(`${base}/resources`)).json().meta.total, 1);
    const one = (await get(`${base}/resources/${published.id}`)).json().data;
    assert.equal(one.status, 'published');
    assert.equal(one.url, 'https://example.org/material');
    const missing = await get(`${base}/resources/999999`);
    const hidden = await get(`${base}/resources/${draft.id}`);
    assert.equal(hidden.statusCode, 404);
    assert.equal(hidden.json().code, 'not_found');
    assert.equal(hidden.body, missing.body, 'a draft is indistinguishable from a missing id');
    assertError(await get(`${otherBase}/resources/${published.id}`), 404, 'not_found');

    const ctx = operatorContext(app.platform);
    const shown = await app.services.resources.publish(ctx, draft.id);
    assert.equal(shown.status, 'published');
    assert.equal(shown.published_at, NOW);
    assert.deepEqual(await ids(`${base}/resources?sort=title`), [draft.id, published.id]);
    await refused(app.services.resources.publish(ctx, draft.id), 409);
  });

  test('resources: created through the service with the checks of each type', async () => {
    const resources = app.services.resources;
    const ctx = operatorContext(app.platform);
    // As `academy admin resources create` takes it: checked against the schema, then by the service.
    const create = async (data: unknown) => resources.create(ctx, validateInput(ResourceCreate, data));
    const text = await create({ session_id: sessionId, title: 'Notes', type: 'text', body: 'Lift with care.' });
    assert.deepEqual([text.status, text.published_at, text.url], ['draft', null, null]);
    const link = await create({
      session_id: sessionId,
      title: 'Video',
      type: 'link',
      url: 'https://example.org/v',
      status: 'published',
    });
    assert.deepEqual([link.status, link.published_at], ['published', NOW]);
    await refused(create({ session_id: sessionId, title: 'x', type: 'link' }), 422, 'url');
    await refused(create({ session_id: sessionId, title: 'x', type: 'text' }), 422, 'body');
    await refused(create({ session_id: sessionId, title: 'x', type: 'video' }), 422, 'type');
    await refused(create({ session_id: sessionId, title: 'x', type: 'link', url: 'ftp://x' }), 422, 'url');
    await refused(create({ session_id: 999_999, title: 'x', type: 'text', body: 'y' }), 422, 'session_id');
  });

  test('meetings: listed per session, sorted by day, one read, 404 across sessions', async () => {
    const later = await f.meeting({ session_id: sessionId, held_on: '2027-01-13' });
    const earlier = await f.meeting({ session_id: sessionId, held_on: '2027-01-12' });
    const elsewhere = await f.meeting({ session_id: otherSessionId });
    assert.deepEqual(await ids(`${base}/meetings`), [later.id, earlier.id]);
    assert.deepEqual(await ids(`${base}/meetings?sort=held_on`), [earlier.id, later.id]);
    assert.deepEqual(await ids(`${base}/meetings?sort=held_on&direction=desc&per_page=1`), [later.id]);
    const one = (await get(`${base}/meetings/${earlier.id}`)).json().data;
    assert.deepEqual([one.held_on, one.status, one.effective_status, one.location], ['2027-01-12', 'Scheduled', 'scheduled', 'Room 1']);
    assertError(await get(`${base}/meetings/${elsewhere.id}`), 404, 'not_found');
    assertError(await get(`${base}/meetings/${earlier.id}`, await app.token(['enrolments:read'])), 403, 'insufficient_scope');
  });

  test('resources and meetings: pagination and updated_since; every nested endpoint needs courses:read (401, 403)', async () => {
    const course = await f.course();
    const session = await f.session({ course_id: course.id });
    const at = (day: number) => `2027-01-0${day}T00:00:00.000Z`;
    const r1 = await f.resource({ session_id: session.id, updated_at: at(1) });
    const r2 = await f.resource({ session_id: session.id, updated_at: at(3) });
    const m1 = await f.meeting({ session_id: session.id, updated_at: at(1) });
    const m2 = await f.meeting({ session_id: session.id, updated_at: at(3) });
    const a1 = await f.assessment({ session_id: session.id });
    const root = `/api/v1/courses/${course.slug}/sessions/${session.id}`;
    for (const [part, first, second] of [
      ['resources', r1.id, r2.id],
      ['meetings', m1.id, m2.id],
    ] as const) {
      assert.deepEqual(await ids(`${root}/${part}?per_page=1`), [first]);
      const page = (await get(`${root}/${part}?per_page=1&page=2`)).json();
      assert.deepEqual([page.data[0].id, page.meta.total, page.meta.last_page, page.links.next], [second, 2, 2, null]);
      assert.deepEqual(await ids(`${root}/${part}?updated_since=2027-01-02T00:00:00Z`), [second]);
      assert.deepEqual(await ids(`${root}/${part}?sort=id&direction=desc`), [second, first]);
      assertError(await get(`${root}/${part}?direction=up`), 422, 'validation_failed');
    }
    const wrong = await app.token(['enrolments:read', 'tasks:read']);
    for (const url of [
      `${root}/assessments`,
      `${root}/assessments/${a1.id}`,
      `${root}/resources`,
      `${root}/resources/${r1.id}`,
      `${root}/meetings`,
      `${root}/meetings/${m1.id}`,
    ]) {
      assertError(await app.http.inject({ method: 'GET', url }), 401, 'unauthenticated', url);
      const forbidden = await get(url, wrong);
      assert.equal(forbidden.statusCode, 403, url);
      assert.equal(forbidden.json().code, 'insufficient_scope');
      assert.equal((await get(url)).statusCode, 200, url);
      // A malformed slug or id anywhere in the path is the plain 404.
      assertError(await get(url.replace(course.slug, course.slug.toUpperCase())), 404, 'not_found', url);
      assertError(await get(url.replace(`/sessions/${session.id}`, `/sessions/0${session.id}`)), 404, 'not_found', url);
    }
  });

  test("meetings near midnight in the organization's time zone (Pacific/Auckland): effective status and the 422s", async () => {
    const db = app.platform.database.db;
    await db.updateTable('organization').set({ timezone: 'Pacific/Auckland' }).execute();
    try {
      // 11 January 2027 in Auckland (UTC+13 in summer) runs from 10 Jan 11:00Z to 11 Jan 11:00Z.
      assert.equal(startOfDay('2027-01-11', 'Pacific/Auckland').toISOString(), '2027-01-10T11:00:00.000Z');
      assert.equal(endOfDay('2027-01-11', 'Pacific/Auckland').toISOString(), '2027-01-11T11:00:00.000Z');
      const allDay = await f.meeting({ session_id: sessionId, held_on: '2027-01-11' });
      const timed = await f.meeting({
        session_id: sessionId,
        held_on: '2027-01-11',
        starts_at: '2027-01-10T20:00:00.000Z',
        ends_at: '2027-01-10T23:00:00.000Z',
      });
      const cancelled = await f.meeting({ session_id: sessionId, held_on: '2027-01-11', status: 'Cancelled', cancelled_at: NOW });
      const status = async (id: number) => (await get(`${base}/meetings/${id}`)).json().data.effective_status;

      clock.set('2027-01-10T22:59:59.999Z');
      assert.deepEqual(
        [await status(allDay.id), await status(timed.id), await status(cancelled.id)],
        ['scheduled', 'scheduled', 'cancelled'],
      );
      clock.set('2027-01-10T23:00:00.000Z');
      assert.equal(await status(timed.id), 'completed', 'completed from its ends_at');
      clock.set('2027-01-11T10:59:59.999Z');
      assert.equal(await status(allDay.id), 'scheduled', 'still 11 January in Auckland');
      clock.set('2027-01-11T11:00:00.000Z');
      assert.equal(await status(allDay.id), 'completed', 'midnight in Auckland, though only 11:00 in UTC');
      assert.equal(await status(cancelled.id), 'cancelled');

      clock.set(NOW);
      const meetings = app.services.meetings;
      const ctx = operatorContext(app.platform);
      // As `academy admin meetings create` takes it: checked against the schema, then by the service.
      const create = async (data: unknown) => meetings.create(ctx, validateInput(MeetingCreate, data));
      // 00:30 on 12 January in Auckland is still 11 January in UTC: the organization's day counts.
      const created = await create({
        session_id: sessionId,
        held_on: '2027-01-12',
        starts_at: '2027-01-11T11:30:00Z',
        ends_at: '2027-01-12T11:00:00Z',
        location: 'Depot',
      });
      assert.deepEqual(
        [created.starts_at, created.ends_at, created.status, created.effective_status],
        ['2027-01-11T11:30:00.000Z', '2027-01-12T11:00:00.000Z', 'Scheduled', 'scheduled'],
      );
      assert.equal(localDate(new Date(created.starts_at as string), 'Pacific/Auckland'), '2027-01-12');
      await refused(create({ session_id: sessionId, held_on: '2027-01-12', starts_at: '2027-01-11T10:59:00Z' }), 422, 'starts_at');
      await refused(create({ session_id: sessionId, held_on: '2027-01-12', ends_at: '2027-01-12T11:00:01Z' }), 422, 'ends_at');
      await refused(
        create({
          session_id: sessionId,
          held_on: '2027-01-12',
          starts_at: '2027-01-11T20:00:00Z',
          ends_at: '2027-01-11T20:00:00Z',
        }),
        422,
        'ends_at',
      );
      await refused(create({ session_id: sessionId, held_on: '2027-02-30' }), 422, 'held_on');
      await refused(create({ session_id: sessionId, held_on: '2027-01-12', starts_at: '2027-01-12 09:00' }), 422, 'starts_at');

      const cancelledNow = await meetings.cancel(ctx, created.id);
      assert.deepEqual([cancelledNow.status, cancelledNow.effective_status, cancelledNow.cancelled_at], ['Cancelled', 'cancelled', NOW]);
      await refused(meetings.cancel(ctx, created.id), 409);
      clock.set('2027-01-11T12:00:00.000Z');
      await refused(meetings.cancel(ctx, allDay.id), 409);
    } finally {
      clock.set(NOW);
      await db.updateTable('organization').set({ timezone: 'UTC' }).execute();
    }
  });
});
