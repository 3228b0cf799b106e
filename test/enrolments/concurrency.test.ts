import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Platform } from '../../src/platform/platform.ts';
import { dialect } from '../support/env.ts';
import { fixtures } from '../support/fixtures.ts';
import { createTestPlatform } from '../support/platform.ts';
import { runAcademy, startNode } from '../support/process.ts';

const SEATS = 5;
const STUDENTS = 20;

/** A session with SEATS seats and a waitlist, and STUDENTS students to enrol into it. */
async function setup() {
  const platform = await createTestPlatform();
  const f = fixtures(platform);
  const session = await f.session({ max_participants: SEATS, waitlist_enabled: true });
  const students = await Promise.all(Array.from({ length: STUDENTS }, () => f.student()));
  const env = { DATABASE_URL: platform.database.url, ACADEMY_DATA_DIR: platform.config.dataDir, LOG_LEVEL: 'warn' };
  return { platform, session, students: students.map((s) => s.id), env };
}

/** Exactly SEATS confirmed and the rest waitlisted at 1…n in the order they were decided, with exact counters. */
async function assertSeatsAndWaitlist(platform: Platform, sessionId: number): Promise<void> {
  const db = platform.database.db;
  const rows = await db.selectFrom('enrolments').selectAll().where('session_id', '=', sessionId).orderBy('id').execute();
  assert.equal(rows.length, STUDENTS, 'every enrolment was stored');
  const confirmed = rows.filter((r) => r.status === 'confirmed');
  const waitlisted = rows.filter((r) => r.status === 'waitlisted');
  assert.equal(confirmed.length, SEATS);
  assert.equal(waitlisted.length, STUDENTS - SEATS);
  assert.deepEqual(
    waitlisted.map((r) => r.waitlist_position),
    Array.from({ length: STUDENTS - SEATS }, (_, i) => i + 1),
    'positions 1…n, contiguous, in the order the enrolments were made',
  );
  assert.ok(confirmed.every((r) => r.waitlist_position === null));
  const session = await db.selectFrom('training_sessions').selectAll().where('id', '=', sessionId).executeTakeFirstOrThrow();
  assert.deepEqual([session.confirmed_count, session.waitlisted_count], [SEATS, STUDENTS - SEATS], 'the counters match the rows');
  const created = (await platform.events.listByType('enrollment.created')).map((e) => JSON.parse(e.payload).enrolment_id);
  assert.deepEqual(
    created.sort((a, b) => a - b),
    rows.map((r) => r.id),
    'one enrollment.created per enrolment',
  );
}

describe('enrolling many at once', () => {
  test(`${STUDENTS} enrolments from two processes into a ${SEATS}-seat session: ${SEATS} confirmed, the rest waitlisted 1…n`, {
    skip: dialect === 'sqlite' ? 'PostgreSQL: concurrent transactions in two processes (the SQLite case runs academy processes)' : false,
  }, async () => {
    const { platform, session, students, env } = await setup();
    const halves = [students.slice(0, STUDENTS / 2), students.slice(STUDENTS / 2)];
    const processes = halves.map((ids) =>
      startNode(['test/support/enrol-process.ts'], {
        ...env,
        SESSION_ID: String(session.id),
        STUDENT_IDS: ids.join(','),
      }),
    );
    await Promise.all(processes.map((p) => p.waitFor(/ready/, 60_000)));
    for (const p of processes) p.child.kill('SIGUSR1');
    const outcomes = await Promise.all(
      processes.map(async (p) => {
        const line = await p.waitFor(/^\[.*\]$/m, 60_000);
        assert.equal(await p.exited, 0, p.output());
        return JSON.parse(line[0]) as { status?: string; error?: string }[];
      }),
    );
    const all = outcomes.flat();
    assert.deepEqual(
      all.filter((o) => o.error),
      [],
      'no enrolment failed',
    );
    assert.equal(all.filter((o) => o.status === 'confirmed').length, SEATS);
    // Both processes were in the race: each got some of the first seats or waitlist places.
    assert.ok(outcomes.every((list) => list.length === STUDENTS / 2));
    await assertSeatsAndWaitlist(platform, session.id);
  });

  test(`${STUDENTS} academy admin enrolments create processes at once into a ${SEATS}-seat session: ${SEATS} confirmed, the rest waitlisted 1…n`, {
    skip: dialect === 'postgres' ? 'SQLite: one writer at a time across processes (the PostgreSQL case races two processes)' : false,
  }, async () => {
    const { platform, session, students, env } = await setup();
    const results = await Promise.all(
      students.map((id) =>
        runAcademy(
          ['--json', 'admin', 'enrolments', 'create', '--data', JSON.stringify({ student_id: id, session_id: session.id })],
          env,
          120_000,
        ),
      ),
    );
    for (const result of results) assert.equal(result.code, 0, result.stderr);
    const printed = results.map((r) => JSON.parse(r.stdout) as { status: string; waitlist_position: number | null });
    assert.equal(printed.filter((e) => e.status === 'confirmed').length, SEATS);
    assert.deepEqual(
      printed
        .filter((e) => e.status === 'waitlisted')
        .map((e) => e.waitlist_position)
        .sort((a, b) => (a ?? 0) - (b ?? 0)),
      Array.from({ length: STUDENTS - SEATS }, (_, i) => i + 1),
    );
    await assertSeatsAndWaitlist(platform, session.id);
  });
});
