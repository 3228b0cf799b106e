import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { seedDemo } from '../../src/modules/demo/seed.ts';
import { fixedClock } from '../../src/platform/clock.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { formClient } from '../support/forms.ts';
import { bearer, createTestApp, createTestAssembly, type TestApp } from '../support/platform.ts';

const NOW = '2027-03-10T11:30:00.000Z';

/** Everything the demo academy shows, without ids and secrets: what must be equal on every load. */
async function content(platform: Platform) {
  const { db } = platform.database;
  return {
    courses: await db.selectFrom('courses').select(['slug', 'status', 'price_minor', 'created_at', 'updated_at']).orderBy('slug').execute(),
    sessions: await db
      .selectFrom('training_sessions')
      .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
      .select([
        'courses.slug',
        'training_sessions.name',
        'workflow_state',
        'starts_on',
        'confirmed_count',
        'waitlisted_count',
        'completed_count',
      ])
      .orderBy('courses.slug')
      .orderBy('training_sessions.name')
      .execute(),
    students: await db.selectFrom('users').select(['name', 'email', 'email_verified']).orderBy('email').execute(),
    enrolments: await db
      .selectFrom('enrolments')
      .innerJoin('users', 'users.id', 'enrolments.user_id')
      .innerJoin('training_sessions', 'training_sessions.id', 'enrolments.session_id')
      .select([
        'users.email',
        'training_sessions.name',
        'enrolments.status',
        'waitlist_position',
        'completion_outcome',
        'enrolments.created_at',
      ])
      .orderBy('enrolments.created_at')
      .orderBy('users.email')
      .execute(),
    certificates: await db
      .selectFrom('certificates')
      .innerJoin('users', 'users.id', 'certificates.user_id')
      .select(['users.email', 'certificates.status', 'issued_at'])
      .orderBy('issued_at')
      .orderBy('users.email')
      .execute(),
  };
}

describe('the demo academy (seed --demo)', () => {
  let app: TestApp;
  let token: string;
  const get = async (url: string, headers: Record<string, string> = bearer(token)) => {
    const res = await app.http.inject({ method: 'GET', url: `/api/v1${url}`, headers });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    return res.json();
  };
  /** Every item of a list, page after page. */
  const every = async <T>(url: string): Promise<T[]> => {
    const items: T[] = [];
    for (let page = 1; ; page++) {
      const res = await get(`${url}${url.includes('?') ? '&' : '?'}per_page=100&page=${page}`);
      items.push(...res.data);
      if (page >= res.meta.last_page) return items;
    }
  };
  /** Every session of every course, as the API shows them. */
  const sessions = async () => {
    const courses = (await get('/courses?per_page=100')).data as { slug: string }[];
    const all: { course: string; id: number; workflow_state: string; capacity_status: string; [field: string]: unknown }[] = [];
    for (const course of courses) all.push(...(await get(`/courses/${course.slug}/sessions?per_page=100`)).data);
    return all;
  };

  let adminLink: string;

  before(async () => {
    app = await createTestApp({ clock: fixedClock(NOW) });
    const demo = await seedDemo(app.platform, app.services);
    assert.ok(demo.seeded && demo.token && demo.adminLink);
    token = demo.token;
    adminLink = demo.adminLink;
  });

  test('the one-time link of the demo administrator sets a password and signs them in to the console, once', async () => {
    const link = new URL(adminLink);
    const page = `${link.pathname}${link.search}`;
    const token = link.searchParams.get('token') ?? '';
    const browser = formClient(app.http);
    const password = 'northwind-demo-console-2026';
    const done = await browser.submit(page, '/console/password/reset', { token, password, password_confirmation: password });
    assert.equal(done.statusCode, 303, done.body);
    const home = await browser.request('GET', '/console/account');
    assert.equal(home.statusCode, 200);
    assert.ok(home.body.includes('Demo Administrator'));
    assert.match(home.body, /users\.manage/, 'an administrator');
    assert.equal((await formClient(app.http).request('GET', page)).statusCode, 404, 'the link works once'); // status only: an HTML page
  });

  test('lists published courses as active and every other publication state as inactive', async () => {
    const active = await get('/courses?active=1');
    assert.ok(active.data.length > 0);
    assert.ok(active.data.every((c: { status: string }) => c.status === 'published'));
    const inactive = (await get('/courses?active=0')).data.map((c: { status: string }) => c.status).sort();
    assert.deepEqual(inactive, ['approved', 'archived', 'draft', 'review']);
  });

  test('has sessions in every workflow state, full ones with and without a waitlist, and completed ones with their rates', async () => {
    const all = await sessions();
    assert.deepEqual([...new Set(all.map((s) => s.workflow_state))].sort(), [
      'cancelled',
      'completed',
      'draft',
      'in_progress',
      'open_for_registration',
      'scheduled',
    ]);
    const waiting = all.filter((s) => s.capacity_status === 'waitlist' && (s.waitlisted_count as number) > 0);
    assert.ok(waiting.length > 0, 'a full session with people waiting');
    assert.ok(
      all.some((s) => s.capacity_status === 'full'),
      'a full session without a waitlist',
    );
    assert.ok(all.some((s) => s.registration_status === 'open' && s.registration_open === true));
    const completed = all.filter((s) => s.workflow_state === 'completed');
    assert.ok(completed.every((s) => s.completion_rate === 100));

    const nested = waiting[0] as (typeof all)[number];
    const read = (await get(`/courses/${nested.course}/sessions/${nested.id}`)).data;
    assert.equal(read.capacity_status, 'waitlist');
    assert.equal(read.available_seats, 0);
  });

  test('keeps every waitlist contiguous from 1, with counters that match the enrolments', async () => {
    const waitlisted = await every<{ session_id: number; waitlist_position: number }>('/enrolments?status=waitlisted');
    assert.ok(waitlisted.length > 0);
    const bySession = new Map<number, number[]>();
    for (const e of waitlisted) bySession.set(e.session_id, [...(bySession.get(e.session_id) ?? []), e.waitlist_position]);
    for (const positions of bySession.values()) {
      assert.deepEqual(
        positions.sort((a, b) => a - b),
        positions.map((_, i) => i + 1),
      );
    }
    for (const session of await sessions()) {
      const count = async (status: string) =>
        (await every<{ session_id: number }>(`/enrolments?status=${status}&course_id=${session.course_id}`)).filter(
          (e) => e.session_id === session.id,
        ).length;
      assert.equal(session.confirmed_count, await count('confirmed'), `confirmed of session ${session.id}`);
      assert.equal(session.waitlisted_count, await count('waitlisted'), `waitlisted of session ${session.id}`);
    }
    assert.ok((await get('/enrolments?status=cancelled')).meta.total > 0);
  });

  test('has passed and failed completions, certificates only for passes, and one revoked certificate that verifies as revoked', async () => {
    const enrolments = await every<{ id: number; completion_outcome: string | null }>('/enrolments?status=confirmed');
    const outcomes = new Set(enrolments.map((e) => e.completion_outcome));
    for (const outcome of ['passed', 'failed', 'withdrawn', null]) assert.ok(outcomes.has(outcome), `an enrolment ${outcome}`);
    const certificates = await every<{ enrolment_id: number; status: string; verification_token: string }>('/certificates');
    const passed = new Set(enrolments.filter((e) => e.completion_outcome === 'passed').map((e) => e.id));
    assert.equal(certificates.length, passed.size);
    assert.ok(certificates.every((c) => passed.has(c.enrolment_id)));

    const revoked = certificates.filter((c) => c.status === 'revoked');
    assert.equal(revoked.length, 1);
    const verified = await get(`/certificates/verify/${revoked[0]?.verification_token}`, {});
    assert.equal(verified.data.status, 'revoked');
    assert.ok(verified.data.revoked_at);
    const valid = certificates.find((c) => c.status === 'valid');
    assert.equal((await get(`/certificates/verify/${valid?.verification_token}`, {})).data.status, 'valid');
  });

  test('hides draft resources, shows cancelled meetings, and finds students case-insensitively beyond ASCII', async () => {
    const all = await sessions();
    const open = all.find((s) => s.workflow_state === 'open_for_registration' && s.waitlisted_count) as (typeof all)[number];
    const base = `/courses/${open.course}/sessions/${open.id}`;
    const resources = (await get(`${base}/resources`)).data as { status: string }[];
    assert.ok(resources.length > 0 && resources.every((r) => r.status === 'published'));
    const drafts = await app.platform.database.db.selectFrom('learning_resources').select('id').where('status', '=', 'draft').execute();
    assert.ok(drafts.length > 0, 'draft resources exist (and are not listed)');
    const meetings = (await get(`${base}/meetings`)).data as { status: string; effective_status: string }[];
    assert.ok(meetings.some((m) => m.status === 'Cancelled' && m.effective_status === 'cancelled'));
    assert.ok((await get(`${base}/assessments`)).data.length > 0);

    const students = await every<{ name: string; courses: string[] }>('/students');
    assert.ok(students.length >= 50);
    assert.ok(students.every((s) => s.courses.length > 0));
    const accented = students.find((s) => /[^\x20-\x7e]/.test(s.name)) as { name: string };
    const word = accented.name.split(' ').find((w) => /[^\x20-\x7e]/.test(w)) as string;
    const found = await get(`/students?search=${encodeURIComponent(word.toUpperCase())}`);
    assert.ok(found.data.some((s: { name: string }) => s.name === accented.name));
  });

  test('is the same academy on every load', async () => {
    const { platform: again, services } = await createTestAssembly({ clock: fixedClock(NOW) });
    assert.ok((await seedDemo(again, services)).seeded);
    assert.deepEqual(await content(again), await content(app.platform));
  });
});
