import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Platform } from '../../src/platform/platform.ts';
import { jsonError, runCli } from '../support/cli.ts';
import { fixtures } from '../support/fixtures.ts';
import { createTestPlatform } from '../support/platform.ts';
import { runAcademy } from '../support/process.ts';

describe('academy admin: courses, sessions, meetings, assessments, resources, enrolments', () => {
  let platform: Platform;
  let env: Record<string, string>;
  const admin = async (...args: string[]) => {
    const result = await runCli(['--json', 'admin', ...args], env);
    assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  };
  const data = (value: unknown) => ['--data', JSON.stringify(value)];

  before(async () => {
    platform = await createTestPlatform();
    env = { DATABASE_URL: platform.database.url, ACADEMY_DATA_DIR: platform.config.dataDir };
  });

  test('a course from creation to publication, a session with its parts, and enrolments with a waitlist', async () => {
    const course = await admin(
      'courses',
      'create',
      ...data({
        slug: 'cpr',
        title: 'CPR',
        code: 'CPR-1',
        price: '99.5',
        currency: 'EUR',
        language: 'en-gb',
        description: 'Basic life support',
      }),
    );
    assert.deepEqual([course.slug, course.status, course.price, course.language], ['cpr', 'draft', '99.50', 'en-GB']);
    for (const state of ['review', 'approved', 'published'])
      assert.equal((await admin('courses', 'transition', 'cpr', ...data({ to_state: state }))).status, state);

    const session = await admin(
      'sessions',
      'create',
      ...data({
        course: 'cpr',
        name: 'March',
        max_participants: 1,
        starts_on: '2027-03-01',
        ends_on: '2027-03-02',
        workflow_state: 'scheduled',
      }),
    );
    assert.deepEqual([session.course, session.workflow_state, session.capacity_status], ['cpr', 'scheduled', 'available']);
    assert.equal(
      (await admin('sessions', 'transition', String(session.id), ...data({ to_state: 'open_for_registration' }))).registration_status,
      'open',
    );

    const meeting = await admin(
      'meetings',
      'create',
      ...data({
        session_id: session.id,
        held_on: '2027-03-01',
        starts_at: '2027-03-01T09:00:00Z',
        ends_at: '2027-03-01T12:00:00Z',
        location: 'Hall',
      }),
    );
    assert.deepEqual([meeting.status, meeting.effective_status], ['Scheduled', 'scheduled']);
    assert.equal((await admin('meetings', 'cancel', String(meeting.id))).effective_status, 'cancelled');
    const assessment = await admin(
      'assessments',
      'create',
      ...data({ session_id: session.id, title: 'Practical', kind: 'practical', max_score: 10 }),
    );
    assert.equal(assessment.kind, 'practical');
    const resource = await admin('resources', 'create', ...data({ session_id: session.id, title: 'Guide', type: 'text', body: '30:2' }));
    assert.equal(resource.status, 'draft');
    assert.equal((await admin('resources', 'publish', String(resource.id))).status, 'published');

    const f = fixtures(platform);
    const [ann, ben] = [await f.student({}, { courseId: course.id }), await f.student({}, { courseId: course.id })];
    const first = await admin('enrolments', 'create', ...data({ student_id: ann.id, session_id: session.id }));
    const second = await admin('enrolments', 'create', ...data({ student_id: ben.id, session_id: session.id }));
    assert.deepEqual([first.status, second.status, second.waitlist_position], ['confirmed', 'waitlisted', 1]);
    const cancelled = await admin('enrolments', 'cancel', String(first.id), ...data({ reason: 'Ill' }));
    assert.deepEqual([cancelled.status, cancelled.cancellation_reason], ['cancelled', 'Ill']);
    const completed = await admin(
      'enrolments',
      'complete',
      String(second.id),
      ...data({ completion_outcome: 'passed', completion_notes: 'Good' }),
    );
    assert.deepEqual([completed.status, completed.completion_outcome], ['confirmed', 'passed'], 'promoted, then completed');
    const bigger = await admin('sessions', 'update', String(session.id), ...data({ max_participants: 5, instructor_name: 'Dr Quinn' }));
    assert.deepEqual(
      [bigger.max_participants, bigger.available_seats, bigger.completion_rate, bigger.instructor_name],
      [5, 4, 100, 'Dr Quinn'],
    );

    // Every resource has a list; --json prints what the API shows.
    assert.deepEqual(
      (await admin('courses', 'list')).map((c: { slug: string }) => c.slug),
      ['cpr'],
    );
    assert.equal((await admin('sessions', 'list', '--course', 'cpr'))[0].id, session.id);
    assert.equal((await admin('meetings', 'list', '--session', String(session.id))).length, 1);
    assert.equal((await admin('assessments', 'list')).length, 1);
    assert.equal((await admin('resources', 'list')).length, 1);
    assert.deepEqual(
      (await admin('enrolments', 'list', '--session', String(session.id))).map((e: { status: string }) => e.status),
      ['cancelled', 'confirmed'],
    );

    const text = await runAcademy(['admin', 'enrolments', 'list'], env);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^id\s+student_id\s+session_id\s+course_id\s+status/);
    assert.match(text.stdout, /cancelled/);
  });

  test('bad data is a non-zero exit with the field errors on stderr; unknown fields are refused', async () => {
    const bad = await runCli(
      ['--json', 'admin', 'courses', 'create', '--data', JSON.stringify({ slug: 'X Y', price: 'ten', colour: 'red' })],
      env,
    );
    assert.notEqual(bad.code, 0);
    assert.equal(bad.stdout, '');
    assert.match(jsonError(bad.stderr), /^validation_failed: /);
    for (const field of ['slug', 'title', 'code', 'price', 'currency', 'language', 'colour'])
      assert.match(jsonError(bad.stderr), new RegExp(`^  ${field}: `, 'm'), field);
    const human = await runCli(['admin', 'courses', 'create', '--data', JSON.stringify({ slug: 'X Y' })], env);
    assert.match(human.stderr, /The input is invalid/);
    assert.match(human.stderr, /^ {2}slug: /m);

    const moved = await runCli(['admin', 'sessions', 'transition', '999999', '--data', '{"to_state":"cancelled"}'], env);
    assert.notEqual(moved.code, 0);
    assert.match(moved.stderr, /Nothing has that id/);
    const json = await runCli(['admin', 'enrolments', 'create', '--data', '{not json'], env);
    assert.notEqual(json.code, 0);
    assert.match(json.stderr, /--data must be a JSON object/);
    const conflict = await runCli(['admin', 'courses', 'transition', 'cpr', '--data', '{"to_state":"draft"}'], env);
    assert.notEqual(conflict.code, 0);
    assert.match(conflict.stderr, /cannot move from published to draft/);
  });

  describe("--data is checked against the action's schema: every field at once, in the API's words", () => {
    let course: { id: number; slug: string };
    let session: { id: number };
    /** The field errors of a refused `admin` action, one `field: message` line each, sorted. */
    const refused = async (...args: string[]) => {
      const result = await runCli(['--json', 'admin', ...args], env);
      assert.notEqual(result.code, 0, args.join(' '));
      const [first, ...lines] = jsonError(result.stderr).split('\n');
      assert.match(first as string, /^validation_failed: /);
      return lines.map((line) => line.trim()).sort();
    };

    before(async () => {
      const f = fixtures(platform);
      course = await f.course({ slug: 'schema-words', code: 'SW-1' });
      session = await f.session({ course_id: course.id, starts_on: '2027-03-01', ends_on: '2027-03-02' });
    });

    test('courses create and transition', async () => {
      assert.deepEqual(
        await refused(
          'courses',
          'create',
          ...data({ slug: 'X Y', title: '', code: 'a b', price: 'ten', currency: 'EURO', language: 'not a tag!', colour: 'red' }),
        ),
        [
          'code: The code field must be letters, digits, ".", "_" or "-", starting with a letter or digit, e.g. "PM-101".',
          'colour: The colour field is not recognised.',
          'currency: The currency field must be an ISO 4217 currency code, such as EUR.',
          'language: The language field must be a BCP 47 language tag, such as en-GB.',
          'price: The price field must be a non-negative decimal number as a string, e.g. "450.00".',
          'slug: The slug field must be lowercase letters and digits in words joined by single hyphens, e.g. "project-management-101".',
          'title: The title field must not be empty.',
        ],
      );
      assert.deepEqual(
        await refused(
          'courses',
          'create',
          ...data({ slug: 'yen', title: 'Yen', code: 'Y1', price: '450.5', currency: 'JPY', language: 'ja' }),
        ),
        ['price: The price field must be a whole number for JPY, e.g. "450".'],
      );
      assert.deepEqual(await refused('courses', 'transition', course.slug, ...data({})), ['to_state: The to_state field is required.']);
    });

    test('sessions create, update and transition', async () => {
      assert.deepEqual(
        await refused('sessions', 'create', ...data({ course: course.slug, name: 'x', max_participants: -1, starts_on: '2027-3-1' })),
        [
          'ends_on: The ends_on field is required.',
          'max_participants: The max_participants field must be at least 0.',
          'starts_on: The starts_on field must be a date written YYYY-MM-DD.',
        ],
      );
      assert.deepEqual(
        await refused(
          'sessions',
          'create',
          ...data({
            course: 'no-such-course',
            name: 'x',
            max_participants: 1,
            starts_on: '2027-03-05',
            ends_on: '2027-03-01',
            registration_opens_at: '2027-02-01T00:00:00Z',
            registration_closes_at: '2027-01-01T00:00:00Z',
          }),
        ),
        [
          'course: The course field must be the slug of a course; no course has the slug "no-such-course".',
          'ends_on: The ends_on field must be on or after starts_on.',
          'registration_closes_at: The registration_closes_at field must be after registration_opens_at.',
        ],
      );
      assert.deepEqual(
        await refused('sessions', 'update', String(session.id), ...data({ course: 'other', workflow_state: 'cancelled', name: null })),
        [
          'course: The course field is not recognised.',
          'name: The name field must be text.',
          'workflow_state: The workflow_state field must not be cancelled here: a session is cancelled only through its transition (sessions transition ID, to_state "cancelled").',
        ],
      );
      assert.deepEqual(await refused('sessions', 'update', String(session.id), ...data({ ends_on: '2027-02-01' })), [
        'ends_on: The ends_on field must be on or after starts_on.',
      ]);
      assert.deepEqual(await refused('sessions', 'transition', String(session.id), ...data({ to_state: 'paused' })), [
        'to_state: The to_state field must be one of: draft, scheduled, open_for_registration, in_progress, completed, cancelled.',
      ]);
      // A date-time the format allows but no clock has (a leap second) is refused, not a failure of the action.
      assert.deepEqual(
        await refused('sessions', 'update', String(session.id), ...data({ registration_opens_at: '2027-01-11T23:59:60Z' })),
        [
          'registration_opens_at: The registration_opens_at field must be an RFC 3339 date-time with a time zone, e.g. 2027-01-11T09:00:00Z.',
        ],
      );
    });

    test('meetings create', async () => {
      assert.deepEqual(
        await refused(
          'meetings',
          'create',
          ...data({ session_id: session.id, held_on: '2027-03-01', starts_at: '2027-03-01T12:00:00Z', ends_at: '2027-03-01T09:00:00Z' }),
        ),
        ['ends_at: The ends_at field must be after starts_at.'],
      );
      assert.deepEqual(
        await refused('meetings', 'create', ...data({ session_id: session.id, held_on: '2027-03-01', starts_at: '2027-03-02T09:00:00Z' })),
        ["starts_at: The starts_at field must be on 2027-03-01 in the organization's time zone (UTC)."],
      );
    });

    test('assessments create', async () => {
      assert.deepEqual(await refused('assessments', 'create', ...data({ session_id: 999_999, title: 'Exam', max_score: 0 })), [
        'max_score: The max_score field must be at least 1.',
      ]);
      assert.deepEqual(await refused('assessments', 'create', ...data({ session_id: 999_999, title: 'Exam' })), [
        'session_id: The session_id field must be the id of a training session; none has the id 999999.',
      ]);
    });

    test('resources create', async () => {
      assert.deepEqual(
        await refused('resources', 'create', ...data({ session_id: session.id, title: 'Slides', type: 'link', url: 'ftp://x' })),
        ['url: The url field must be an http or https URL.'],
      );
      assert.deepEqual(await refused('resources', 'create', ...data({ session_id: session.id, title: 'Slides', type: 'link' })), [
        'url: The url field is required for a link resource.',
      ]);
    });
  });
});
