import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { isUniqueViolation } from '../../src/db/errors.ts';
import { EnrolmentCompletion, EnrolmentCreate } from '../../src/modules/enrolments/schemas.ts';
import type { EnrolmentService } from '../../src/modules/enrolments/service.ts';
import type { SessionService } from '../../src/modules/sessions/service.ts';
import { operatorContext, type ServiceContext } from '../../src/platform/context.ts';
import type { Platform } from '../../src/platform/platform.ts';
import type { Services } from '../../src/platform/services.ts';
import { validateInput } from '../../src/platform/validation.ts';
import { refused } from '../support/errors.ts';
import { type Fixtures, fixtures } from '../support/fixtures.ts';
import { createTestAssembly } from '../support/platform.ts';

describe('enrolments with a waitlist', () => {
  let platform: Platform;
  let services: Services;
  let f: Fixtures;
  let ctx: ServiceContext;
  let enrolments: EnrolmentService;
  let sessions: SessionService;

  before(async () => {
    ({ platform, services } = await createTestAssembly());
    f = fixtures(platform);
    ctx = operatorContext(platform);
    enrolments = services.enrolments;
    sessions = services.sessions;
  });

  // As `academy admin enrolments create|complete` call the service: the data checked by its schema first.
  const enrol = async (data: unknown) => enrolments.enrol(ctx, validateInput(EnrolmentCreate, data));
  const complete = async (id: number, data: unknown) => enrolments.complete(ctx, id, validateInput(EnrolmentCompletion, data));
  const students = async (n: number) => Promise.all(Array.from({ length: n }, () => f.student()));
  const enrolAll = async (sessionId: number, ids: number[]) => {
    const out = [];
    for (const id of ids) out.push(await enrol({ student_id: id, session_id: sessionId }));
    return out;
  };
  const counts = async (id: number) => {
    const s = await sessions.getById(ctx, id);
    return { confirmed: s.confirmed_count, waitlisted: s.waitlisted_count, seats: s.available_seats, capacity: s.capacity_status };
  };
  const waitlistOf = async (sessionId: number) => {
    const { items } = await enrolments.list(
      ctx,
      { sessionId, status: 'waitlisted' },
      { page: { page: 1, perPage: 100, offset: 0 }, sort: 'id', direction: 'asc' },
    );
    return items.map((e) => [e.student_id, e.waitlist_position]);
  };
  const eventsOf = async (type: string, sessionId: number) =>
    (await platform.events.listByType(type)).map((e) => JSON.parse(e.payload)).filter((p) => p.session_id === sessionId);

  test('enrolling into a full session waitlists at positions 1, 2, 3; the counters follow', async () => {
    const session = await f.session({ max_participants: 2 });
    const people = await students(5);
    const made = await enrolAll(
      session.id,
      people.map((p) => p.id),
    );
    assert.deepEqual(
      made.map((e) => [e.status, e.waitlist_position]),
      [
        ['confirmed', null],
        ['confirmed', null],
        ['waitlisted', 1],
        ['waitlisted', 2],
        ['waitlisted', 3],
      ],
    );
    assert.ok(made[0]?.confirmed_at);
    assert.equal(made[2]?.confirmed_at, null);
    assert.equal(made[0]?.course_id, session.course_id);
    assert.deepEqual(await counts(session.id), { confirmed: 2, waitlisted: 3, seats: 0, capacity: 'waitlist' });
    const created = await eventsOf('enrollment.created', session.id);
    assert.equal(created.length, 5);
    assert.deepEqual(created[4], {
      enrolment_id: made[4]?.id,
      student_id: people[4]?.id,
      session_id: session.id,
      course_id: session.course_id,
      status: 'waitlisted',
      waitlist_position: 3,
    });
  });

  test('cancelling a confirmed enrolment promotes position 1, renumbers the rest and records enrollment.promoted', async () => {
    const session = await f.session({ max_participants: 2 });
    const people = await students(5);
    const made = await enrolAll(
      session.id,
      people.map((p) => p.id),
    );
    const cancelled = await enrolments.cancel(ctx, made[0]?.id as number, 'Changed jobs');
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.cancellation_reason, 'Changed jobs');
    assert.ok(cancelled.cancelled_at);
    assert.equal(cancelled.waitlist_position, null);

    const promoted = await enrolments.get(ctx, made[2]?.id as number);
    assert.equal(promoted.status, 'confirmed');
    assert.equal(promoted.waitlist_position, null);
    assert.ok(promoted.confirmed_at);
    assert.deepEqual(await waitlistOf(session.id), [
      [people[3]?.id, 1],
      [people[4]?.id, 2],
    ]);
    assert.deepEqual(await counts(session.id), { confirmed: 2, waitlisted: 2, seats: 0, capacity: 'waitlist' });
    const events = await eventsOf('enrollment.promoted', session.id);
    assert.equal(events.length, 1);
    assert.equal(events[0].enrolment_id, made[2]?.id);
    assert.equal(events[0].previous_waitlist_position, 1);
    assert.equal((await eventsOf('enrollment.cancelled', session.id)).length, 1);

    // A waitlisted enrolment leaving closes the waitlist up behind it; nobody is promoted.
    await enrolments.cancel(ctx, made[3]?.id as number);
    assert.deepEqual(await waitlistOf(session.id), [[people[4]?.id, 1]]);
    assert.deepEqual(await counts(session.id), { confirmed: 2, waitlisted: 1, seats: 0, capacity: 'waitlist' });
    assert.equal((await eventsOf('enrollment.promoted', session.id)).length, 1);
  });

  test('a larger capacity promotes the oldest waitlisted enrolments at once; fewer seats than confirmed is refused', async () => {
    const session = await f.session({ max_participants: 1 });
    const people = await students(4);
    const made = await enrolAll(
      session.id,
      people.map((p) => p.id),
    );
    const updated = await sessions.update(ctx, session.id, { max_participants: 3 });
    assert.equal(updated.max_participants, 3);
    assert.equal(updated.confirmed_count, 3);
    assert.equal(updated.waitlisted_count, 1);
    assert.equal(updated.available_seats, 0);
    assert.deepEqual(
      (await Promise.all(made.map((e) => enrolments.get(ctx, e.id)))).map((e) => [e.status, e.waitlist_position]),
      [
        ['confirmed', null],
        ['confirmed', null],
        ['confirmed', null],
        ['waitlisted', 1],
      ],
    );
    assert.equal((await eventsOf('enrollment.promoted', session.id)).length, 2);
    await refused(sessions.update(ctx, session.id, { max_participants: 2 }), 422, 'validation_failed', 'max_participants');
    // More seats than waiters: everyone gets one and seats remain.
    const roomy = await sessions.update(ctx, session.id, { max_participants: 10 });
    assert.deepEqual([roomy.confirmed_count, roomy.waitlisted_count, roomy.available_seats, roomy.capacity_status], [4, 0, 6, 'available']);
  });

  test('a cancelled enrolment does not block a new one; two live enrolments of one student in one session are a 409', async () => {
    const session = await f.session({ max_participants: 5 });
    const [student] = await students(1);
    const first = await enrol({ student_id: student?.id, session_id: session.id });
    const duplicate = await refused(enrol({ student_id: student?.id, session_id: session.id }), 409, 'conflict');
    assert.match(duplicate.message, /already enrolled/);
    await enrolments.cancel(ctx, first.id);
    const again = await enrol({ student_id: student?.id, session_id: session.id });
    assert.equal(again.status, 'confirmed');
    assert.notEqual(again.id, first.id);
    assert.deepEqual(await counts(session.id), { confirmed: 1, waitlisted: 0, seats: 4, capacity: 'available' });
    await refused(enrolments.cancel(ctx, first.id), 409, 'invalid_transition');
  });

  test('the partial unique index stands behind the check: a second live row is a unique violation, a cancelled one is not', async () => {
    const session = await f.session();
    const [student] = await students(1);
    const row = { session_id: session.id, user_id: student?.id as number };
    await f.enrolment({ ...row, status: 'cancelled', confirmed_at: null });
    await f.enrolment({ ...row, status: 'waitlisted', waitlist_position: 1 });
    const error = await f.enrolment(row).then(
      () => assert.fail('a second live enrolment was stored'),
      (caught: unknown) => caught,
    );
    assert.equal(isUniqueViolation(error), true, String(error));
    assert.equal(isUniqueViolation(new Error('other')), false);
  });

  test('without a waitlist a full session refuses with a 409 conflict; seats 0 with a waitlist waitlists at 1', async () => {
    const closed = await f.session({ max_participants: 1, waitlist_enabled: false });
    const [a, b] = await students(2);
    assert.equal((await enrol({ student_id: a?.id, session_id: closed.id })).status, 'confirmed');
    assert.deepEqual(await counts(closed.id), { confirmed: 1, waitlisted: 0, seats: 0, capacity: 'full' });
    const full = await refused(enrol({ student_id: b?.id, session_id: closed.id }), 409, 'conflict');
    assert.match(full.message, /full/);

    const none = await f.session({ max_participants: 0 });
    assert.deepEqual(await counts(none.id), { confirmed: 0, waitlisted: 0, seats: 0, capacity: 'waitlist' });
    const waiting = await enrol({ student_id: b?.id, session_id: none.id });
    assert.deepEqual([waiting.status, waiting.waitlist_position], ['waitlisted', 1]);
    const noSeatsNoList = await f.session({ max_participants: 0, waitlist_enabled: false });
    assert.equal((await counts(noSeatsNoList.id)).capacity, 'full');
    await refused(enrol({ student_id: b?.id, session_id: noSeatsNoList.id }), 409, 'conflict');
  });

  test('only students enrol: staff, users without an application and unknown ids are a 422 on student_id', async () => {
    const session = await f.session();
    const staff = await f.user({ is_admin: true });
    await f.application({ user_id: staff.id });
    const applicant = await f.user();
    for (const id of [staff.id, applicant.id, 999_999]) {
      await refused(enrol({ student_id: id, session_id: session.id }), 422, 'validation_failed', 'student_id');
    }
    const [student] = await students(1);
    await refused(enrol({ student_id: student?.id, session_id: 999_999 }), 422, 'validation_failed', 'session_id');
    await refused(enrol({ student_id: 'x', session_id: session.id, seat: 1 }), 422, 'validation_failed', 'seat');
    const error = await refused(enrol({}), 422, 'validation_failed');
    assert.deepEqual(Object.keys(error.details ?? {}).sort(), ['session_id', 'student_id']);
  });

  test('a cancelled or completed session takes no enrolments (409)', async () => {
    const [student] = await students(1);
    for (const state of ['cancelled', 'completed']) {
      const session = await f.session({ workflow_state: state });
      await refused(enrol({ student_id: student?.id, session_id: session.id }), 409, 'conflict');
    }
  });

  test('completion is recorded once, on confirmed enrolments, moves completion_rate and records enrollment.completed', async () => {
    const session = await f.session({ max_participants: 3 });
    const people = await students(4);
    const made = await enrolAll(
      session.id,
      people.map((p) => p.id),
    );
    assert.equal((await sessions.getById(ctx, session.id)).completion_rate, 0);
    const done = await complete(made[0]?.id as number, { completion_outcome: 'passed', completion_notes: 'Top marks' });
    assert.deepEqual([done.status, done.completion_outcome, done.completion_notes], ['confirmed', 'passed', 'Top marks']);
    assert.ok(done.completion_recorded_at);
    assert.equal((await sessions.getById(ctx, session.id)).completion_rate, 33.3);
    await complete(made[1]?.id as number, { completion_outcome: 'withdrawn' });
    assert.equal((await sessions.getById(ctx, session.id)).completion_rate, 66.7);
    await complete(made[2]?.id as number, { completion_outcome: 'failed' });
    assert.equal((await sessions.getById(ctx, session.id)).completion_rate, 100);

    await refused(complete(made[0]?.id as number, { completion_outcome: 'failed' }), 409, 'invalid_transition');
    await refused(complete(made[3]?.id as number, { completion_outcome: 'passed' }), 409, 'invalid_transition');
    await refused(complete(made[1]?.id as number, { completion_outcome: 'great' }), 422, 'validation_failed', 'completion_outcome');
    await refused(complete(made[1]?.id as number, {}), 422, 'validation_failed', 'completion_outcome');
    await refused(enrolments.cancel(ctx, made[0]?.id as number), 409, 'invalid_transition');
    await refused(complete(999_999, { completion_outcome: 'passed' }), 404, 'not_found');
    await refused(enrolments.cancel(ctx, 999_999), 404, 'not_found');
    const completed = await eventsOf('enrollment.completed', session.id);
    assert.equal(completed.length, 3);
    assert.equal(completed[0].completion_outcome, 'passed');
  });
});
