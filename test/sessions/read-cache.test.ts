import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { entityTag } from '../../src/http/conventions.ts';
import { operatorContext } from '../../src/platform/context.ts';
import { seenAfterRemoteWrite } from '../support/eventually.ts';
import { fixtures } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';
import { runAcademy } from '../support/process.ts';

/**
 * GET /courses/{course}/sessions/{session} keeps the session in memory; every write of a session
 * (its enrolment counters, its workflow, its fields), in this process or another one, must be seen by
 * the next read. Each test reads the session twice first (the second read comes from the cache).
 */
describe('GET /courses/{course}/sessions/{session} after the session changes', () => {
  let app: TestApp;
  let token: string;
  let env: Record<string, string>;
  let f: ReturnType<typeof fixtures>;

  type Shown = { confirmed_count: number; waitlisted_count: number; available_seats: number; workflow_state: string; name: string };
  const read = async (path: string, headers: Record<string, string> = {}) =>
    app.http.inject({ method: 'GET', url: path, headers: { ...bearer(token), ...headers } });
  const shown = async (path: string): Promise<Shown> => {
    const res = await read(path);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };
  const cached = async (path: string) => {
    const first = await shown(path);
    assert.deepEqual(await shown(path), first);
    return first;
  };
  const seen = (probe: () => Promise<boolean>, what: string) => seenAfterRemoteWrite(app.platform.database.dialect, probe, what);
  const setup = async (seats: number) => {
    const course = await f.course();
    const session = await f.session({ course_id: course.id, max_participants: seats });
    return { course, session, path: `/api/v1/courses/${course.slug}/sessions/${session.id}` };
  };

  before(async () => {
    app = await createTestApp();
    token = await app.token(['courses:read']);
    f = fixtures(app.platform);
    env = { DATABASE_URL: app.platform.database.url, ACADEMY_DATA_DIR: app.platform.config.dataDir };
  });

  test('enrolments, cancellations and changes made in this process show at once, with a new ETag', async () => {
    const { course, session, path } = await setup(1);
    const ctx = operatorContext(app.platform);
    const enrolments = app.services.enrolments;
    const before = await cached(path);
    const etag = (await read(path)).headers.etag as string;
    assert.equal((await read(path, { 'if-none-match': etag })).statusCode, 304);

    const [ann, ben] = [await f.student({}, { courseId: course.id }), await f.student({}, { courseId: course.id })];
    const first = await enrolments.enrol(ctx, { student_id: ann.id, session_id: session.id });
    const after = await shown(path);
    assert.deepEqual([after.confirmed_count, after.available_seats], [before.confirmed_count + 1, before.available_seats - 1]);
    const res = await read(path, { 'if-none-match': etag });
    assert.equal(res.statusCode, 200, 'the old ETag no longer matches');
    assert.equal(res.headers.etag, entityTag(res.body));

    await cached(path);
    await enrolments.enrol(ctx, { student_id: ben.id, session_id: session.id });
    assert.equal((await shown(path)).waitlisted_count, 1);
    await cached(path);
    await enrolments.cancel(ctx, first.id);
    const promoted = await shown(path);
    assert.deepEqual([promoted.confirmed_count, promoted.waitlisted_count], [1, 0], 'the waitlisted student was promoted');

    await cached(path);
    const sessions = app.services.sessions;
    await sessions.update(ctx, session.id, { name: 'Renamed' });
    assert.equal((await shown(path)).name, 'Renamed');
    await cached(path);
    await sessions.transition(ctx, session.id, { to_state: 'in_progress' });
    assert.equal((await shown(path)).workflow_state, 'in_progress');
  });

  test('an enrolment and a move made by `academy admin` in another process are seen', async () => {
    const { course, session, path } = await setup(5);
    const student = await f.student({}, { courseId: course.id });
    const before = await cached(path);
    const enrolled = await runAcademy(
      ['--json', 'admin', 'enrolments', 'create', '--data', JSON.stringify({ student_id: student.id, session_id: session.id })],
      env,
    );
    assert.equal(enrolled.code, 0, enrolled.stderr);
    await seen(async () => (await shown(path)).confirmed_count === before.confirmed_count + 1, 'the enrolment made in another process');

    await cached(path);
    const moved = await runAcademy(
      ['--json', 'admin', 'sessions', 'transition', String(session.id), '--data', '{"to_state":"in_progress"}'],
      env,
    );
    assert.equal(moved.code, 0, moved.stderr);
    await seen(async () => (await shown(path)).workflow_state === 'in_progress', 'the move made in another process');
  });

  test('a session of another course, and a missing one, stay the same 404 after a cached read', async () => {
    const { session, path } = await setup(3);
    await cached(path);
    const other = await f.course();
    const elsewhere = await read(`/api/v1/courses/${other.slug}/sessions/${session.id}`);
    const missing = await read(`/api/v1/courses/${other.slug}/sessions/999999`);
    assert.equal(elsewhere.statusCode, 404);
    assert.equal(elsewhere.json().code, 'not_found');
    assert.equal(elsewhere.body, missing.body);
  });
});
