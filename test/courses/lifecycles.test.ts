import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { CourseCreate, CourseTransition } from '../../src/modules/courses/schemas.ts';
import { sessionsModule } from '../../src/modules/sessions/module.ts';
import { SessionCreate, SessionTransition, SessionUpdate } from '../../src/modules/sessions/schemas.ts';
import { fixedClock } from '../../src/platform/clock.ts';
import { operatorContext } from '../../src/platform/context.ts';
import type { Platform } from '../../src/platform/platform.ts';
import type { Services } from '../../src/platform/services.ts';
import { validateInput } from '../../src/platform/validation.ts';
import { refused } from '../support/errors.ts';
import { type Fixtures, fixtures } from '../support/fixtures.ts';
import { createTestAssembly } from '../support/platform.ts';
import { startReceiver } from '../support/receiver.ts';

const NOW = '2027-01-10T11:30:00.000Z';

const COURSE = { slug: 'welding-basics', title: 'Welding basics', code: 'WLD-101', price: '450.00', currency: 'EUR', language: 'en' };

describe('lifecycles: course publication and the training-session workflow', () => {
  const clock = fixedClock(NOW);
  let platform: Platform;
  let services: Services;
  let f: Fixtures;
  const ctx = () => operatorContext(platform);
  const payloads = async (type: string) => (await platform.events.listByType(type)).map((e) => JSON.parse(e.payload));

  before(async () => {
    ({ platform, services } = await createTestAssembly({ clock }));
    f = fixtures(platform);
  });

  test('a course is created in draft, with every field checked at once', async () => {
    const courses = services.courses;
    // As `academy admin courses create` takes it: checked against the schema, then by the service.
    const create = async (data: unknown) => courses.create(ctx(), validateInput(CourseCreate, data));
    const course = await create({ ...COURSE, description: 'Arc and gas welding.' });
    assert.deepEqual(
      [course.slug, course.status, course.price, course.currency, course.language, course.published_at],
      ['welding-basics', 'draft', '450.00', 'EUR', 'en', null],
    );
    const error = await refused(
      create({
        slug: 'Bad Slug',
        title: '',
        code: 'WLD 101',
        price: '12,50',
        currency: 'EURO',
        language: 'not a tag!',
        colour: 'red',
      }),
      422,
      'validation_failed',
    );
    assert.deepEqual(Object.keys(error.details ?? {}).sort(), ['code', 'colour', 'currency', 'language', 'price', 'slug', 'title']);
    // What needs the database or another field is checked by the service, after the schema.
    const taken = await refused(create(COURSE), 422, 'validation_failed');
    assert.deepEqual(Object.keys(taken.details ?? {}).sort(), ['code', 'slug']);
    await refused(create({ ...COURSE, slug: 'yen', code: 'Y1', currency: 'JPY', price: '450.5' }), 422, 'validation_failed', 'price');
    assert.equal((await create({ ...COURSE, slug: 'yen', code: 'Y1', currency: 'JPY', price: '45000' })).price, '45000');
  });

  test('course publication: allowed moves, refused ones (409 invalid_transition), unknown states (422), events', async () => {
    const courses = services.courses;
    const { slug } = await courses.create(ctx(), { ...COURSE, slug: 'painting', code: 'PNT-1' });
    const to = async (state: string) => courses.transition(ctx(), slug, validateInput(CourseTransition, { to_state: state }));
    await refused(to('published'), 409, 'invalid_transition');
    await refused(to('approved'), 409, 'invalid_transition');
    assert.equal((await to('review')).status, 'review');
    assert.equal((await to('draft')).status, 'draft', 'back to draft from review');
    await to('review');
    assert.equal((await to('approved')).status, 'approved');
    await refused(to('archived'), 409, 'invalid_transition');
    const published = await to('published');
    assert.deepEqual([published.status, published.published_at], ['published', NOW]);
    await refused(to('published'), 409, 'invalid_transition');
    const archived = await to('archived');
    assert.deepEqual([archived.status, archived.archived_at], ['archived', NOW]);
    for (const state of ['draft', 'review', 'approved', 'published']) await refused(to(state), 409, 'invalid_transition');
    await refused(to('deleted'), 422, 'validation_failed', 'to_state');
    await refused(
      (async () => courses.transition(ctx(), slug, validateInput(CourseTransition, {})))(),
      422,
      'validation_failed',
      'to_state',
    );
    await refused(courses.transition(ctx(), 'no-such-course', { to_state: 'review' }), 404, 'not_found');

    const [event] = (await payloads('course.published')).filter((p) => p.slug === slug);
    assert.deepEqual(event, { course_id: published.id, slug, code: 'PNT-1', title: 'Welding basics', status: 'published', at: NOW });
    assert.equal((await payloads('course.archived')).filter((p) => p.slug === slug).length, 1);
  });

  test('sessions: created with checks, moved along the workflow, cancelled from any non-final state only by hand', async () => {
    const sessions = services.sessions;
    const course = await f.course();
    const base = { course: course.slug, name: 'Spring', max_participants: 12, starts_on: '2027-03-01', ends_on: '2027-03-05' };
    // As `academy admin sessions …` takes them: checked against the schema, then by the service.
    const create = async (data: unknown) => sessions.create(ctx(), validateInput(SessionCreate, data));
    const update = async (id: number, data: unknown) => sessions.update(ctx(), id, validateInput(SessionUpdate, data));
    const session = await create(base);
    assert.deepEqual([session.workflow_state, session.waitlist_enabled, session.registration_status], ['draft', true, 'not_open']);

    const invalid = {
      course: 'nope',
      name: 'x',
      max_participants: -1,
      starts_on: '2027-03-05',
      ends_on: '2027-03-01',
      registration_opens_at: '2027-02-01T00:00:00Z',
      registration_closes_at: '2027-01-01T00:00:00Z',
      workflow_state: 'completed',
    };
    const error = await refused(create(invalid), 422, 'validation_failed');
    assert.deepEqual(Object.keys(error.details ?? {}).sort(), ['max_participants', 'workflow_state']);
    // The course and the rules across fields are the service's, checked once the fields are valid.
    const across = await refused(create({ ...invalid, max_participants: 1, workflow_state: 'draft' }), 422, 'validation_failed');
    assert.deepEqual(Object.keys(across.details ?? {}).sort(), ['course', 'ends_on', 'registration_closes_at']);

    const to = async (id: number, state: string) => sessions.transition(ctx(), id, validateInput(SessionTransition, { to_state: state }));
    await refused(to(session.id, 'open_for_registration'), 409, 'invalid_transition');
    await refused(to(session.id, 'in_progress'), 409, 'invalid_transition');
    for (const state of ['scheduled', 'open_for_registration', 'in_progress', 'completed']) {
      assert.equal((await to(session.id, state)).workflow_state, state);
    }
    await refused(to(session.id, 'cancelled'), 409, 'invalid_transition');
    await refused(to(session.id, 'draft'), 409, 'invalid_transition');
    await refused(to(session.id, 'paused'), 422, 'validation_failed', 'to_state');

    for (const steps of [
      [],
      ['scheduled'],
      ['scheduled', 'open_for_registration'],
      ['scheduled', 'open_for_registration', 'in_progress'],
    ]) {
      const s = await create(base);
      for (const state of steps) await to(s.id, state);
      assert.equal((await to(s.id, 'cancelled')).workflow_state, 'cancelled', `cancelled after ${steps.join(' → ') || 'draft'}`);
      await refused(to(s.id, 'draft'), 409, 'invalid_transition');
    }

    const sessionEvents = async (type: string) => (await payloads(type)).filter((p) => p.course_id === course.id);
    assert.equal((await sessionEvents('course_intake.registration_opened')).length, 3);
    assert.equal((await sessionEvents('course_intake.completed')).length, 1);
    assert.equal((await sessionEvents('course_intake.cancelled')).length, 4);
    const [completed] = await sessionEvents('course_intake.completed');
    assert.deepEqual(completed, {
      session_id: session.id,
      course_id: course.id,
      course: course.slug,
      name: 'Spring',
      workflow_state: 'completed',
      starts_on: '2027-03-01',
      ends_on: '2027-03-05',
      at: NOW,
    });
    // Created open for registration: registration opens then, with its event.
    const open = await create({ ...base, workflow_state: 'open_for_registration' });
    assert.equal(open.registration_status, 'open');
    assert.equal((await sessionEvents('course_intake.registration_opened')).length, 4);
    // Update: any field but the course; a workflow_state goes through the workflow.
    const updated = await update(open.id, { name: 'Late spring', instructor_name: null, workflow_state: 'in_progress' });
    assert.deepEqual([updated.name, updated.instructor_name, updated.workflow_state], ['Late spring', null, 'in_progress']);
    await refused(update(open.id, { workflow_state: 'draft' }), 409, 'invalid_transition');
    await refused(update(open.id, { course: 'other' }), 422, 'validation_failed', 'course');
    await refused(update(open.id, { ends_on: '2027-02-01' }), 422, 'validation_failed', 'ends_on');
    await refused(update(999_999, { name: 'x' }), 404, 'not_found');
    // Cancelling is the transition's alone (CONTRACT): an update naming it is a 422, and nothing moves.
    const cancellations = (await sessionEvents('course_intake.cancelled')).length;
    await refused(update(open.id, { workflow_state: 'cancelled' }), 422, 'validation_failed', 'workflow_state');
    assert.equal((await sessionEvents('course_intake.cancelled')).length, cancellations);
    const stored = await platform.database.db
      .selectFrom('training_sessions')
      .select('workflow_state')
      .where('id', '=', open.id)
      .executeTakeFirstOrThrow();
    assert.equal(stored.workflow_state, 'in_progress');
    // A move's event describes the session as the same update leaves it.
    await update(open.id, { name: 'Renamed as it ends', ends_on: '2027-03-06', workflow_state: 'completed' });
    const ended = (await sessionEvents('course_intake.completed')).find((p) => p.session_id === open.id);
    assert.equal(ended?.name, 'Renamed as it ends');
    assert.equal(ended?.ends_on, '2027-03-06');
  });

  test("the sessions.advance task moves sessions by their dates in the organization's time zone, once", async () => {
    await platform.database.db.updateTable('organization').set({ timezone: 'Pacific/Auckland' }).execute();
    try {
      // NOW is 11 January 00:30 in Auckland, still 10 January in UTC.
      const course = await f.course();
      const s = (overrides: Parameters<Fixtures['session']>[0]) => f.session({ course_id: course.id, ...overrides });
      const toOpen = await s({
        workflow_state: 'scheduled',
        registration_opens_at: '2027-01-10T11:30:00.000Z',
        starts_on: '2027-02-01',
        ends_on: '2027-02-05',
      });
      const notYet = await s({
        workflow_state: 'scheduled',
        registration_opens_at: '2027-01-10T11:30:00.001Z',
        starts_on: '2027-02-01',
        ends_on: '2027-02-05',
      });
      const noOpening = await s({
        workflow_state: 'scheduled',
        registration_opens_at: null,
        starts_on: '2027-01-11',
        ends_on: '2027-01-12',
      });
      const toStart = await s({ workflow_state: 'open_for_registration', starts_on: '2027-01-11', ends_on: '2027-01-15' });
      const notStarting = await s({ workflow_state: 'open_for_registration', starts_on: '2027-01-12', ends_on: '2027-01-15' });
      const toComplete = await s({ workflow_state: 'in_progress', starts_on: '2027-01-05', ends_on: '2027-01-10' });
      const lastDay = await s({ workflow_state: 'in_progress', starts_on: '2027-01-05', ends_on: '2027-01-11' });
      const behind = await s({
        workflow_state: 'scheduled',
        registration_opens_at: '2026-12-01T00:00:00.000Z',
        starts_on: '2027-01-02',
        ends_on: '2027-01-09',
      });
      const draft = await s({
        workflow_state: 'draft',
        registration_opens_at: '2026-12-01T00:00:00.000Z',
        starts_on: '2027-01-02',
        ends_on: '2027-01-03',
      });
      const cancelled = await s({ workflow_state: 'cancelled', starts_on: '2027-01-02', ends_on: '2027-01-03' });

      const advance = sessionsModule.tasks['sessions.advance'];
      const run = () =>
        advance({ platform, services, now: clock.now(), signal: new AbortController().signal, logger: pino({ level: 'silent' }) });
      assert.deepEqual(await run(), { opened: 2, started: 2, completed: 2 });
      const state = async (id: number) =>
        (await platform.database.db.selectFrom('training_sessions').select('workflow_state').where('id', '=', id).executeTakeFirstOrThrow())
          .workflow_state;
      assert.equal(await state(toOpen.id), 'open_for_registration', 'opens at its opening instant');
      assert.equal(await state(notYet.id), 'scheduled');
      assert.equal(await state(noOpening.id), 'scheduled', 'without an opening time, registration is opened by hand');
      assert.equal(await state(toStart.id), 'in_progress', "starts on its first day in Auckland's calendar");
      assert.equal(await state(notStarting.id), 'open_for_registration');
      assert.equal(await state(toComplete.id), 'completed', 'completed once its last day has passed');
      assert.equal(await state(lastDay.id), 'in_progress', 'still its last day');
      assert.equal(await state(behind.id), 'completed', 'a session behind by several steps takes them in one pass');
      assert.equal(await state(draft.id), 'draft', 'a draft is never moved automatically');
      assert.equal(await state(cancelled.id), 'cancelled');
      assert.deepEqual(await run(), { opened: 0, started: 0, completed: 0 }, 'a second run moves nothing');
      const opened = (await payloads('course_intake.registration_opened'))
        .filter((p) => p.course_id === course.id)
        .map((p) => p.session_id);
      assert.deepEqual(opened.sort(), [toOpen.id, behind.id].sort());
      const done = (await payloads('course_intake.completed')).filter((p) => p.course_id === course.id).map((p) => p.session_id);
      assert.deepEqual(done.sort(), [toComplete.id, behind.id].sort());

      const task = await platform.database.db
        .selectFrom('scheduled_tasks')
        .selectAll()
        .where('task_type', '=', 'sessions.advance')
        .executeTakeFirstOrThrow();
      assert.equal(task.cron, '* * * * *');
      assert.equal(Boolean(task.enabled), true);
    } finally {
      await platform.database.db.updateTable('organization').set({ timezone: 'UTC' }).execute();
    }
  });
});

describe('webhooks of the catalogue', () => {
  test('a subscribed endpoint receives course.published and enrollment.created, signed (Standard Webhooks)', async (t) => {
    const { platform, services } = await createTestAssembly({ env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true' } });
    const worker = platform.createWorker({ pollMs: 50 });
    await worker.start();
    t.after(() => worker.stop(2000));
    const receiver = await startReceiver();
    const { secret } = await services.webhooks.create(operatorContext(platform), {
      url: `${receiver.url}/hooks`,
      events: ['course.published', 'enrollment.created'],
    });
    const ctx = operatorContext(platform);
    const f = fixtures(platform);

    const courses = services.courses;
    const course = await courses.create(ctx, COURSE);
    for (const state of ['review', 'approved', 'published'] as const) await courses.transition(ctx, course.slug, { to_state: state });
    const session = await f.session({ course_id: course.id });
    const student = await f.student();
    const enrolment = await services.enrolments.enrol(ctx, { student_id: student.id, session_id: session.id });

    const requests = await receiver.received(2);
    const bodies = requests.map((request) => new Webhook(secret).verify(request.body, request.headers as Record<string, string>)) as {
      type: string;
      payload: Record<string, unknown>;
    }[];
    const byType = Object.fromEntries(bodies.map((b) => [b.type, b.payload]));
    assert.deepEqual(Object.keys(byType).sort(), ['course.published', 'enrollment.created']);
    assert.equal(byType['course.published']?.slug, course.slug);
    assert.deepEqual(byType['enrollment.created'], {
      enrolment_id: enrolment.id,
      student_id: student.id,
      session_id: session.id,
      course_id: course.id,
      status: 'confirmed',
      waitlist_position: null,
    });
    assert.throws(() => new Webhook(secret).verify(requests[0]?.body.replace('"', ' "') ?? '', requests[0]?.headers as never));
  });
});
