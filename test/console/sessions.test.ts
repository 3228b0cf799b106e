import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { operatorContext } from '../../src/platform/context.ts';
import { inputValue, type SignedIn, signedInStaff, textOf } from '../support/console.ts';
import { fixtures, unique } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';

/**
 * The console's sessions and enrolments (issue 41) through their pages, as a browser uses them: a
 * coordinator creates a session of a course and moves it through its workflow; a registrar enrols
 * students, told first whether each will be confirmed or waitlisted, cancels one (the first waiting
 * promoted, and named) and records a completion; a viewer is refused at every action, nothing
 * changed; every change in the audit trail as the console's, by its actor.
 */
describe('console: sessions and enrolments', () => {
  let app: TestApp;
  const tag = unique('ses')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
  // A browser is limited per client address: each test signs in browsers of its own.
  const coordinatorIn = () => signedInStaff(app, ['coordinator'], unique('Coordinator'));
  const registrarIn = () => signedInStaff(app, ['registrar'], unique('Registrar'));
  const viewerIn = () => signedInStaff(app, ['viewer'], unique('Viewer'));

  const db = () => app.platform.database.db;
  const enrolmentsOf = (sessionId: number) =>
    db().selectFrom('enrolments').selectAll().where('session_id', '=', sessionId).orderBy('id').execute();
  const sessionRow = (id: number) => db().selectFrom('training_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const count = async (table: 'audit_events' | 'enrolments' | 'training_sessions' | 'meetings') =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** A course of its own, by the operator. */
  async function course(name: string): Promise<string> {
    const slug = `${tag}-${name}`;
    await app.services.courses.create(operatorContext(app.platform), {
      slug,
      title: `Course ${name}`,
      code: `${tag}-${name}`.toUpperCase().slice(0, 40),
      price: '300.00',
      currency: 'EUR',
      language: 'en',
    });
    return slug;
  }

  /** A session of `slug` created by the operator, open for registration. */
  async function session(slug: string, seats = 2): Promise<number> {
    const created = await app.services.sessions.create(operatorContext(app.platform), {
      course: slug,
      name: unique('Intake'),
      max_participants: seats,
      starts_on: '2027-03-01',
      ends_on: '2027-03-05',
      workflow_state: 'open_for_registration',
    });
    return created.id;
  }

  /** Opens `page` and posts `fields` to `action` with the page's CSRF token; the answer. */
  const post = (who: SignedIn, page: string, action: string, fields: Record<string, string> = {}) =>
    who.browser.submit(page, action, fields);

  const sessionFields = (overrides: Record<string, string> = {}) => ({
    name: 'Spring intake (Berlin)',
    starts_on: '2027-04-05',
    ends_on: '2027-04-09',
    max_participants: '2',
    waitlist_enabled: 'yes',
    registration_opens_at: '',
    registration_closes_at: '2027-04-01T17:00',
    instructor_name: 'Grace Hopper',
    workflow_state: 'open_for_registration',
    ...overrides,
  });

  before(async () => {
    app = await createTestApp();
    await app.services.organization.update(operatorContext(app.platform), { timezone: 'Europe/Berlin' });
  });

  test('without a session the pages send to the sign-in page; a POST changes nothing', async () => {
    const slug = await course('anonymous');
    const id = await session(slug);
    const { formClient } = await import('../support/forms.ts');
    const anonymous = formClient(app.http);
    for (const url of [
      `/console/courses/${slug}/sessions`,
      `/console/courses/${slug}/sessions/new`,
      `/console/courses/${slug}/sessions/${id}`,
      `/console/courses/${slug}/sessions/${id}/enrol?student=a`,
    ]) {
      const res = await anonymous.request('GET', url);
      assert.equal(res.statusCode, 303, url);
      assert.equal(res.headers.location, `/console/sign-in?next=${encodeURIComponent(url)}`);
    }
    const sessions = await count('training_sessions');
    const res = await anonymous.request('POST', `/console/courses/${slug}/sessions`, { _csrf: await anonymous.csrf(), ...sessionFields() });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/console/sign-in');
    assert.equal(await count('training_sessions'), sessions);
  });

  test('the journey: a coordinator creates a session of 2 seats, a registrar enrols three, cancels one, completes one', async () => {
    const [coordinator, registrar] = await Promise.all([coordinatorIn(), registrarIn()]);
    const slug = await course('journey');
    const newPage = `/console/courses/${slug}/sessions/new`;
    const list = `/console/courses/${slug}/sessions`;

    // A bad capacity first: 422, the message beside the field, what was typed kept.
    const form = await coordinator.browser.request('GET', newPage);
    assert.equal(form.statusCode, 200, form.body);
    assert.ok(textOf(form.body).includes('In the organization’s time zone, Europe/Berlin.'));
    const negative = await post(coordinator, newPage, list, sessionFields({ max_participants: '-1' }));
    // status only: a console page (HTML, no JSON code)
    assert.equal(negative.statusCode, 422, negative.body);
    assert.ok(textOf(negative.body).includes('The max_participants field must be at least 0.'), textOf(negative.body));
    assert.match(negative.body, /<a href="#f-max_participants">The max_participants field/, 'the summary links to the field');
    assert.match(
      negative.body,
      /id="f-max_participants"[^>]*aria-describedby="f-max_participants-hint f-max_participants-error"[^>]*aria-invalid="true"/,
    );
    assert.equal(inputValue(negative.body, 'max_participants'), '-1');
    assert.equal(inputValue(negative.body, 'name'), 'Spring intake (Berlin)');
    const words = await post(
      coordinator,
      newPage,
      list,
      sessionFields({ max_participants: 'two', registration_closes_at: 'soon', ends_on: '2027-04-01' }),
    );
    // status only: a console page (HTML, no JSON code)
    assert.equal(words.statusCode, 422);
    const wrong = textOf(words.body);
    assert.ok(wrong.includes('The max_participants field must be a whole number.'), wrong);
    assert.ok(wrong.includes('The registration_closes_at field must be a date and a time, e.g. 2027-01-04 09:00.'), wrong);
    assert.equal(inputValue(words.body, 'registration_closes_at'), 'soon');
    assert.equal(
      await db().selectFrom('training_sessions').select('id').where('name', '=', 'Spring intake (Berlin)').executeTakeFirst(),
      undefined,
    );
    const dates = await post(coordinator, newPage, list, sessionFields({ ends_on: '2027-04-01' }));
    // status only: a console page (HTML, no JSON code)
    assert.equal(dates.statusCode, 422, 'the service’s own rule');
    assert.ok(textOf(dates.body).includes('The ends_on field must be on or after starts_on.'));

    const created = await post(coordinator, newPage, list, sessionFields());
    assert.equal(created.statusCode, 303, created.body);
    const location = String(created.headers.location);
    const match = new RegExp(`^/console/courses/${slug}/sessions/(\\d+)\\?notice=created$`).exec(location);
    assert.ok(match, location);
    const id = Number(match[1]);
    const page = `/console/courses/${slug}/sessions/${id}`;
    const stored = await sessionRow(id);
    assert.equal(stored.max_participants, 2);
    assert.equal(stored.workflow_state, 'open_for_registration');
    assert.equal(stored.registration_closes_at, '2027-04-01T15:00:00.000Z', '17:00 in Berlin (summer time) is 15:00 UTC');
    const shown = await coordinator.browser.request('GET', location);
    assert.equal(shown.statusCode, 200, shown.body);
    const record = textOf(shown.body);
    assert.ok(record.includes('The session is created, open for registration.'), record);
    assert.ok(record.includes('0 of 2 seats taken (2 left); 0 on the waitlist'), record);
    assert.match(shown.body, /<time datetime="2027-04-01T15:00:00.000Z">1 Apr 2027, 17:00 CEST<\/time>/, 'in Berlin’s time');
    assert.ok(!shown.body.includes('Enrol a student'), 'enrolling is the registrar’s');
    const listed = await coordinator.browser.request('GET', list);
    assert.match(listed.body, new RegExp(`<a href="${page}">Spring intake \\(Berlin\\)</a>`));

    // Three students; the registrar finds each by email and is told what enrolling will do.
    const students = [];
    for (const name of ['Ada', 'Brook', 'Cyd']) {
      students.push(await fixtures(app.platform).student({ name: `${name} ${tag}`, email: `${name.toLowerCase()}.${tag}@example.org` }));
    }
    const [ada, brook, cyd] = students as [(typeof students)[number], (typeof students)[number], (typeof students)[number]];
    const expected = [
      [ada, `2 seats left: ${ada.name} will be confirmed.`, `Enrol ${ada.name}`, 'confirmed'],
      [brook, `1 seat left: ${brook.name} will be confirmed.`, `Enrol ${brook.name}`, 'confirmed'],
      [cyd, `The session is full: ${cyd.name} will be waitlisted at position 1.`, `Add ${cyd.name} to the waitlist`, 'waitlisted'],
    ] as const;
    const enrolmentIds: number[] = [];
    for (const [student, says, button, status] of expected) {
      const preview = await registrar.browser.request('GET', `${page}/enrol?student=${encodeURIComponent(student.email.toUpperCase())}`);
      assert.equal(preview.statusCode, 200, preview.body);
      assert.ok(textOf(preview.body).includes(says), textOf(preview.body));
      assert.ok(preview.body.includes(`>${button}</button>`), button);
      const res = await registrar.browser.request('POST', `${page}/enrolments`, {
        _csrf: registrar.browser.csrfOf(preview.body),
        student_id: String(student.id),
      });
      assert.equal(res.statusCode, 303, res.body);
      const to = String(res.headers.location);
      const enrolled = new RegExp(`^${page}\\?notice=enrolled&enrolment=(\\d+)$`).exec(to);
      assert.ok(enrolled, to);
      enrolmentIds.push(Number(enrolled[1]));
      const after = textOf((await registrar.browser.request('GET', to)).body);
      assert.ok(
        after.includes(
          status === 'confirmed' ? `${student.name} is enrolled: confirmed.` : `${student.name} is on the waitlist, at position 1.`,
        ),
        after,
      );
    }
    const [adaEnrolment, brookEnrolment, cydEnrolment] = enrolmentIds as [number, number, number];
    assert.deepEqual(
      (await enrolmentsOf(id)).map((row) => [row.user_id, row.status, row.waitlist_position]),
      [
        [ada.id, 'confirmed', null],
        [brook.id, 'confirmed', null],
        [cyd.id, 'waitlisted', 1],
      ],
    );

    // Enrolling the same student again: the preview says so, and offers no button.
    const again = await registrar.browser.request('GET', `${page}/enrol?student_id=${ada.id}`);
    assert.ok(textOf(again.body).includes(`${ada.name} is already enrolled in this session: confirmed.`));
    assert.ok(!again.body.includes(`>Enrol ${ada.name}</button>`));
    // A search that several students match offers them to choose from.
    const several = await registrar.browser.request('GET', `${page}/enrol?student=${tag}`);
    assert.ok(textOf(several.body).includes('Choose the student'));
    for (const student of students) assert.ok(several.body.includes(`${page}/enrol?student_id=${student.id}`), student.name);
    const none = await registrar.browser.request('GET', `${page}/enrol?student=nobody-${tag}`);
    assert.ok(textOf(none.body).includes(`No student matches “nobody-${tag}”.`));
    assert.match(none.body, /aria-invalid="true"/);
    const notStudent = await post(registrar, `${page}/enrol`, `${page}/enrolments`, { student_id: String(registrar.user.id) });
    // status only: a console page (HTML, no JSON code)
    assert.equal(notStudent.statusCode, 422, 'staff are not students: the service’s rule');
    assert.ok(textOf(notStudent.body).includes('The student_id must be the id of a student'), textOf(notStudent.body));

    // The session's page: the fill, the enrolled and the waitlist in position order.
    const full = await registrar.browser.request('GET', page);
    const text = textOf(full.body);
    assert.ok(text.includes('2 of 2 seats taken (full); 1 on the waitlist'), text);
    assert.ok(/Waitlist Position Student Waiting since Actions 1 Cyd/.test(text), text);

    // Cancelling Ada's: the cancel page says who gets the seat; the notice names who got it.
    const cancelPage = `${page}/enrolments/${adaEnrolment}/cancel`;
    const confirm = await registrar.browser.request('GET', cancelPage);
    assert.equal(confirm.statusCode, 200, confirm.body);
    assert.ok(textOf(confirm.body).includes(`Their seat goes to ${cyd.name}, first on the waitlist, who will be confirmed.`));
    const cancelled = await post(registrar, cancelPage, cancelPage, { reason: 'Moved to another city' });
    assert.equal(cancelled.statusCode, 303, cancelled.body);
    assert.equal(cancelled.headers.location, `${page}?notice=cancelled&enrolment=${adaEnrolment}&promoted=${cydEnrolment}`);
    const afterCancel = textOf((await registrar.browser.request('GET', String(cancelled.headers.location))).body);
    assert.ok(
      afterCancel.includes(`The enrolment of ${ada.name} is cancelled. ${cyd.name}, first on the waitlist, is promoted: confirmed.`),
      afterCancel,
    );
    assert.ok(afterCancel.includes('Moved to another city'), 'the reason among the cancelled');
    assert.ok(afterCancel.includes('No one is waiting.'));

    // Completing Brook's: no outcome is a 422 beside the field; then passed.
    const completePage = `${page}/enrolments/${brookEnrolment}/complete`;
    const noOutcome = await post(registrar, completePage, completePage, { completion_outcome: '', completion_notes: 'Good work' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(noOutcome.statusCode, 422, noOutcome.body);
    assert.ok(textOf(noOutcome.body).includes('The completion_outcome field is required.'), textOf(noOutcome.body));
    assert.match(noOutcome.body, /<textarea id="f-completion_notes"[^>]*>Good work<\/textarea>/, 'the notes kept');
    const completed = await post(registrar, completePage, completePage, { completion_outcome: 'passed', completion_notes: 'Good work' });
    assert.equal(completed.statusCode, 303, completed.body);
    assert.equal(completed.headers.location, `${page}?notice=completed&enrolment=${brookEnrolment}`);
    const afterComplete = textOf((await registrar.browser.request('GET', String(completed.headers.location))).body);
    assert.ok(afterComplete.includes(`The completion of ${brook.name} is recorded: passed.`), afterComplete);
    assert.ok(afterComplete.includes('Confirmed, completed: passed'));
    const twice = await post(registrar, page, completePage, { completion_outcome: 'failed' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(twice.statusCode, 409, 'recorded once');

    assert.deepEqual(
      (await enrolmentsOf(id)).map((row) => [row.user_id, row.status, row.waitlist_position, row.completion_outcome]),
      [
        [ada.id, 'cancelled', null, null],
        [brook.id, 'confirmed', null, 'passed'],
        [cyd.id, 'confirmed', null, null],
      ],
    );

    // Every step in the audit trail: the console's, by whom it was.
    const events = await db()
      .selectFrom('audit_events')
      .select(['action', 'actor_type', 'actor_id', 'via', 'subject_type', 'subject_id'])
      .where((eb) =>
        eb.or([
          eb.and([eb('subject_type', '=', 'session'), eb('subject_id', '=', id)]),
          eb.and([eb('subject_type', '=', 'enrolment'), eb('subject_id', 'in', enrolmentIds)]),
        ]),
      )
      .orderBy('id')
      .execute();
    const by = (user: SignedIn) => ['user', user.user.id, 'console'];
    assert.deepEqual(
      events.map((event) => [event.action, event.subject_id, event.actor_type, event.actor_id, event.via]),
      [
        ['session.created', id, ...by(coordinator)],
        ['enrolment.created', adaEnrolment, ...by(registrar)],
        ['enrolment.created', brookEnrolment, ...by(registrar)],
        ['enrolment.created', cydEnrolment, ...by(registrar)],
        ['enrolment.cancelled', adaEnrolment, ...by(registrar)],
        ['enrolment.promoted', cydEnrolment, 'system', null, 'console'],
        ['enrolment.completed', brookEnrolment, ...by(registrar)],
      ],
    );
  });

  test('a coordinator edits capacity and dates (more seats promote from the waitlist) and moves the session by its buttons', async () => {
    const [coordinator, registrar] = await Promise.all([coordinatorIn(), registrarIn()]);
    const slug = await course('edit');
    const id = await session(slug, 1);
    const page = `/console/courses/${slug}/sessions/${id}`;
    const ctx = operatorContext(app.platform);
    const waiting = [];
    for (let n = 0; n < 3; n += 1) {
      const student = await fixtures(app.platform).student();
      waiting.push(await app.services.enrolments.enrol(ctx, { student_id: student.id, session_id: id }));
    }

    const edit = await coordinator.browser.request('GET', `${page}/edit`);
    assert.equal(edit.statusCode, 200, edit.body);
    assert.equal(inputValue(edit.body, 'max_participants'), '1');
    assert.equal(inputValue(edit.body, 'starts_on'), '2027-03-01');
    const current = {
      name: inputValue(edit.body, 'name') ?? '',
      starts_on: '2027-03-01',
      ends_on: '2027-03-05',
      max_participants: '1',
      waitlist_enabled: 'yes',
      registration_opens_at: '',
      registration_closes_at: '',
      instructor_name: '',
    };
    const fewer = await post(coordinator, `${page}/edit`, page, { ...current, max_participants: '0' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(fewer.statusCode, 422);
    assert.ok(textOf(fewer.body).includes('The max_participants field must be at least 1: the session has 1 confirmed enrolments.'));
    const saved = await post(coordinator, `${page}/edit`, page, {
      ...current,
      max_participants: '2',
      ends_on: '2027-03-12',
      registration_closes_at: '2027-02-20 12:30',
    });
    assert.equal(saved.statusCode, 303, saved.body);
    assert.equal(saved.headers.location, `${page}?notice=updated`);
    const row = await sessionRow(id);
    assert.equal(row.max_participants, 2);
    assert.equal(row.ends_on, '2027-03-12');
    assert.equal(row.registration_closes_at, '2027-02-20T11:30:00.000Z', '12:30 in Berlin (winter time)');
    assert.deepEqual(
      (await enrolmentsOf(id)).map((enrolment) => [enrolment.status, enrolment.waitlist_position]),
      [
        ['confirmed', null],
        ['confirmed', null],
        ['waitlisted', 1],
      ],
      'the new seat went to the first waiting',
    );
    const shown = textOf((await coordinator.browser.request('GET', String(saved.headers.location))).body);
    assert.ok(shown.includes('The session is saved.'));
    assert.ok(shown.includes('2 of 2 seats taken (full); 1 on the waitlist'), shown);

    // The registrar sees the actions on enrolments, not the workflow's buttons.
    const registrarSees = await registrar.browser.request('GET', page);
    assert.ok(!registrarSees.body.includes('Edit the session'));
    assert.ok(registrarSees.body.includes(`${page}/enrolments/${waiting[2]?.id}/cancel`));

    const buttons = (body: string) =>
      [...body.matchAll(/<button type="submit" class="(?:primary|secondary)">([^<]+)<\/button>/g)].map((m) => m[1]);
    const before = await coordinator.browser.request('GET', page);
    assert.deepEqual(
      buttons(before.body).filter((label) => label !== 'Search' && label !== 'Sign out'),
      ['Start', 'Cancel the session (final)'],
    );
    for (const [to, label] of [
      ['in_progress', 'in progress'],
      ['cancelled', 'cancelled'],
    ] as const) {
      const moved = await post(coordinator, page, `${page}/transition`, { to_state: to });
      assert.equal(moved.statusCode, 303, moved.body);
      assert.ok(
        textOf((await coordinator.browser.request('GET', String(moved.headers.location))).body).includes(`The session is now ${label}.`),
      );
      assert.equal((await sessionRow(id)).workflow_state, to);
    }
    const refused = await post(coordinator, page, `${page}/transition`, { to_state: 'open_for_registration' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(refused.statusCode, 409);
    assert.ok(textOf(refused.body).includes('A session cannot move from cancelled to open_for_registration.'));
    const closed = await registrar.browser.request('GET', `${page}/enrol?student_id=${waiting[0]?.student_id}`);
    assert.ok(textOf(closed.body).includes('The session is cancelled: it takes no enrolments.'));
  });

  test('meetings, assessments and resources: added through their forms, listed on the session’s page', async () => {
    const coordinator = await coordinatorIn();
    const slug = await course('parts');
    const id = await session(slug);
    const page = `/console/courses/${slug}/sessions/${id}`;
    const meeting = await post(coordinator, `${page}/meetings/new`, `${page}/meetings`, {
      held_on: '2027-03-02',
      starts_at: '2027-03-02T09:00',
      ends_at: '2027-03-02T08:00',
      location: 'Room 4',
    });
    // status only: a console page (HTML, no JSON code)
    assert.equal(meeting.statusCode, 422);
    assert.ok(textOf(meeting.body).includes('The ends_at field must be after starts_at.'), textOf(meeting.body));
    const added = await post(coordinator, `${page}/meetings/new`, `${page}/meetings`, {
      held_on: '2027-03-02',
      starts_at: '2027-03-02T09:00',
      ends_at: '2027-03-02T12:00',
      location: 'Room 4',
    });
    assert.equal(added.statusCode, 303, added.body);
    const stored = await db().selectFrom('meetings').selectAll().where('session_id', '=', id).executeTakeFirstOrThrow();
    assert.equal(stored.starts_at, '2027-03-02T08:00:00.000Z');
    const assessment = await post(coordinator, `${page}/assessments/new`, `${page}/assessments`, {
      title: 'Final exam',
      kind: 'exam',
      due_at: '2027-03-05T16:00',
      max_score: '0',
    });
    // status only: a console page (HTML, no JSON code)
    assert.equal(assessment.statusCode, 422);
    assert.ok(textOf(assessment.body).includes('The max_score field must be at least 1.'));
    assert.equal(
      (
        await post(coordinator, `${page}/assessments/new`, `${page}/assessments`, {
          title: 'Final exam',
          kind: 'exam',
          due_at: '2027-03-05T16:00',
          max_score: '100',
        })
      ).statusCode,
      303,
    );
    const resource = await post(coordinator, `${page}/resources/new`, `${page}/resources`, {
      title: 'Slides',
      type: 'link',
      url: '',
      status: 'draft',
    });
    // status only: a console page (HTML, no JSON code)
    assert.equal(resource.statusCode, 422);
    assert.ok(textOf(resource.body).includes('The url field is required for a link resource.'));
    assert.equal(
      (
        await post(coordinator, `${page}/resources/new`, `${page}/resources`, {
          title: 'Slides',
          type: 'link',
          url: 'https://example.org/slides',
          status: 'draft',
        })
      ).statusCode,
      303,
    );
    const shown = await coordinator.browser.request('GET', page);
    const text = textOf(shown.body);
    assert.ok(text.includes('2 Mar 2027') && text.includes('Room 4') && text.includes('scheduled'), text);
    assert.ok(text.includes('Final exam') && text.includes('exam') && text.includes('100'));
    assert.ok(text.includes('Slides') && text.includes('draft'));

    const resourceId = (await db().selectFrom('learning_resources').select('id').where('session_id', '=', id).executeTakeFirstOrThrow()).id;
    const published = await post(coordinator, page, `${page}/resources/${resourceId}/publish`);
    assert.equal(published.statusCode, 303, published.body);
    const cancelled = await post(coordinator, page, `${page}/meetings/${stored.id}/cancel`);
    assert.equal(cancelled.statusCode, 303, cancelled.body);
    const after = textOf((await coordinator.browser.request('GET', page)).body);
    assert.ok(after.includes('published') && after.includes('cancelled'), after);

    // A meeting or resource of another session is the same 404 as a missing one.
    const other = await session(slug);
    const elsewhere = await post(coordinator, page, `/console/courses/${slug}/sessions/${other}/meetings/${stored.id}/cancel`);
    // status only: a console page (HTML, no JSON code)
    assert.equal(elsewhere.statusCode, 404);
  });

  test('a viewer reads the pages but gets a 403 page at every action, and nothing changes', async () => {
    const viewer = await viewerIn();
    const slug = await course('viewer');
    const id = await session(slug);
    const ctx = operatorContext(app.platform);
    const student = await fixtures(app.platform).student();
    const other = await fixtures(app.platform).student();
    const enrolment = await app.services.enrolments.enrol(ctx, { student_id: student.id, session_id: id });
    const page = `/console/courses/${slug}/sessions/${id}`;

    const shown = await viewer.browser.request('GET', page);
    assert.equal(shown.statusCode, 200, shown.body);
    for (const hidden of ['Enrol a student', 'Edit the session', 'Cancel the session', '/cancel"', 'Add a meeting']) {
      assert.ok(!shown.body.includes(hidden), `no ${hidden}`);
    }
    const enrolForm = await viewer.browser.request('GET', `${page}/enrol?student_id=${other.id}`);
    assert.ok(textOf(enrolForm.body).includes('needs the enrolments.manage permission'));
    assert.ok(textOf(enrolForm.body).includes('1 seat left'), 'the preview is a read');
    assert.ok(!enrolForm.body.includes(`>Enrol ${other.name}</button>`));
    assert.ok(
      textOf((await viewer.browser.request('GET', `/console/courses/${slug}/sessions/new`)).body).includes(
        'needs the catalogue.manage permission',
      ),
    );

    const before = await Promise.all([count('audit_events'), count('enrolments'), count('training_sessions'), count('meetings')]);
    const csrf = viewer.browser.csrfOf(shown.body);
    const refusals: [string, Record<string, string>, string][] = [
      [`/console/courses/${slug}/sessions`, sessionFields(), 'catalogue.manage'],
      [page, { ...sessionFields(), max_participants: '5' }, 'catalogue.manage'],
      [`${page}/transition`, { to_state: 'cancelled' }, 'catalogue.manage'],
      [`${page}/meetings`, { held_on: '2027-03-02' }, 'catalogue.manage'],
      [`${page}/enrolments`, { student_id: String(other.id) }, 'enrolments.manage'],
      [`${page}/enrolments/${enrolment.id}/cancel`, { reason: 'No' }, 'enrolments.manage'],
      [`${page}/enrolments/${enrolment.id}/complete`, { completion_outcome: 'passed' }, 'enrolments.manage'],
    ];
    for (const [action, fields, permission] of refusals) {
      const res = await viewer.browser.request('POST', action, { _csrf: csrf, ...fields });
      // status only: a console page (HTML, no JSON code)
      assert.equal(res.statusCode, 403, `${action}: ${res.body}`);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.ok(textOf(res.body).includes(`This needs the ${permission} permission`), textOf(res.body));
    }
    assert.deepEqual(
      await Promise.all([count('audit_events'), count('enrolments'), count('training_sessions'), count('meetings')]),
      before,
    );
    assert.equal((await sessionRow(id)).workflow_state, 'open_for_registration');
    assert.equal((await sessionRow(id)).max_participants, 2);
  });

  test('malformed ids, another course’s session and another session’s enrolment are 404 pages', async () => {
    const registrar = await registrarIn();
    const [first, second] = [await course('first'), await course('second')];
    const id = await session(first);
    const otherId = await session(first);
    const student = await fixtures(app.platform).student();
    const enrolment = await app.services.enrolments.enrol(operatorContext(app.platform), { student_id: student.id, session_id: id });
    for (const url of [
      `/console/courses/${second}/sessions/${id}`,
      `/console/courses/${first}/sessions/0`,
      `/console/courses/${first}/sessions/12abc`,
      `/console/courses/Not_A_Slug/sessions/${id}`,
      `/console/courses/${first}/sessions/${otherId}/enrolments/${enrolment.id}/cancel`,
      `/console/courses/${first}/sessions/${id}/enrolments/99999999/complete`,
    ]) {
      const res = await registrar.browser.request('GET', url);
      // status only: a console page (HTML, no JSON code)
      assert.equal(res.statusCode, 404, url);
      assert.match(String(res.headers['content-type']), /^text\/html/);
    }
    const wrong = await registrar.browser.request('GET', `/console/courses/${first}/sessions/${id}?notice=hacked`);
    // status only: a console page (HTML, no JSON code)
    assert.equal(wrong.statusCode, 422, 'a notice is one of the known ones, never text from the URL');
  });
});
