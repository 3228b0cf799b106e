import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../src/db/schema.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

type Group = { total: number; total_capped: boolean; items: { id: number }[]; restricted: boolean };

/** Rows in chunks small enough for either database's bound parameters. */
async function insertAll<T extends keyof DB & string>(db: Kysely<DB>, table: T, rows: Record<string, unknown>[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 200) {
    const inserted = await (db as Kysely<any>)
      .insertInto(table)
      .values(rows.slice(i, i + 200))
      .returning('id')
      .execute();
    ids.push(...inserted.map((row: { id: number }) => Number(row.id)));
  }
  return ids;
}

/**
 * A group's total is counted up to 1,000 (ADR 0025); its items are the first `limit` of every match
 * in the group's order, whether or not the count stopped before them. Each answer is compared with
 * the group's definition read by a plain query over every row.
 */
describe('GET /search: totals counted up to 1,000', () => {
  let app: TestApp;
  let make: Fixtures;
  let token: string;
  /** The tag every matching row carries, unique in this run. */
  let t: string;

  const search = async (q: string, limit: number): Promise<Record<string, Group>> => {
    const res = await app.http.inject({
      method: 'GET',
      url: `/api/v1/search?q=${encodeURIComponent(q)}&limit=${limit}`,
      headers: bearer(token),
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };

  /** The ids a plain query finds, in id order. */
  const ids = async (query: ReturnType<typeof sql<{ id: number }>>) =>
    (await query.execute(app.platform.database.db)).rows.map((row) => Number(row.id));
  const contains = (column: string, text: string) => sql`lower(${sql.ref(column)}) like ${`%${text.toLowerCase()}%`}`;

  /** Every group's definition: the rows that match `q`, by id. */
  const definitions = (q: string) => ({
    students: () =>
      ids(sql`select id from users where is_student and not is_admin and (${contains('name', q)} or ${contains('email', q)}) order by id`),
    users: () => ids(sql`select id from users where is_admin and (${contains('name', q)} or ${contains('email', q)}) order by id`),
    enrolments: () =>
      ids(sql`select e.id from enrolments e
        join users u on u.id = e.user_id
        join training_sessions s on s.id = e.session_id
        join courses c on c.id = s.course_id
        where ${contains('u.name', q)} or ${contains('u.email', q)} or ${contains('c.title', q)} or ${contains('c.code', q)} or ${contains('c.slug', q)}
        order by e.id`),
    certificates: () =>
      ids(sql`select c.id from certificates c join users u on u.id = c.user_id
        where ${contains('c.certificate_number', q)} or ${contains('u.name', q)} or ${contains('u.email', q)}
        order by c.id`),
  });

  before(async () => {
    app = await createTestApp();
    make = fixtures(app.platform);
    token = await app.token(['*']);
    t = unique('cap')
      .replace(/[^a-z0-9]/gi, '')
      .toLowerCase();
    const { db } = app.platform.database;
    const now = new Date().toISOString();
    const applied = await make.course({ title: `Applied ${unique('c')}` });
    const plain = await make.session({ course_id: applied.id });
    // A course the text names: its enrolments match through their course, whoever holds them.
    const named = await make.course({ title: `Masonry ${t}` });
    const namedSession = await make.session({ course_id: named.id });

    // 3,000 users, interleaved by id: 2,730 students carrying the tag, 240 students not, 30 staff with
    // it. More than 2,500 users hold the tag: the groups that match through users then read their
    // rows in id order, testing each row's user, instead of collecting every one (FEW_USERS).
    const users = Array.from({ length: 3000 }, (_, i) => {
      const tagged = i % 12 !== 5 || i % 100 === 5;
      const staff = i % 100 === 5;
      // Every fourteenth holds the tag in two words, `${t}` and `${t}son` (found once all the same),
      // and as many in `${t}son` alone (found through that word).
      const words = i % 14 === 0 ? `${t} ${t}son` : i % 14 === 7 ? `${t}son` : t;
      const name = tagged ? `Pupil ${words} ${String(i).padStart(4, '0')}` : `Other ${unique('p')}`;
      return {
        name,
        email: `u${i}.${tagged ? (i % 14 === 7 ? `${t}son` : t) : unique('o').toLowerCase()}@capped.example`,
        status: 'active',
        is_admin: staff,
        permissions: '[]',
        created_at: now,
        updated_at: now,
      };
    });
    const userIds = await insertAll(db, 'users', users);
    const students = userIds.filter((_, i) => !users[i]?.is_admin);
    await insertAll(
      db,
      'course_applications',
      students.map((user_id) => ({ user_id, course_id: applied.id, source: 'admin', created_at: now, updated_at: now })),
    );
    const enrolment = (user_id: number, session_id: number) => ({
      user_id,
      session_id,
      status: 'confirmed',
      waitlist_position: null,
      confirmed_at: now,
      cancelled_at: null,
      cancellation_reason: null,
      completion_outcome: 'passed',
      completion_notes: null,
      completion_recorded_at: now,
      created_at: now,
      updated_at: now,
    });
    // Every student enrols once; every 40th also in the named course (matching by course, and the
    // untagged ones by course alone).
    const rows = students.flatMap((user, i) =>
      i % 40 === 0 ? [enrolment(user, namedSession.id), enrolment(user, plain.id)] : [enrolment(user, plain.id)],
    );
    const enrolmentIds = await insertAll(db, 'enrolments', rows);
    // A course whose title the text lies in, with more enrolments than are collected through a
    // course (2,500): its page is read in id order, each enrolment tested against its sessions.
    const carpentry = await make.course({ title: `Carpentry ${t}` });
    const carpentrySession = await make.session({ course_id: carpentry.id });
    await insertAll(
      db,
      'enrolments',
      userIds.map((user) => enrolment(user, carpentrySession.id)),
    );
    // Certificates: of every 30th enrolment, and three whose number carries the tag.
    const certificates = enrolmentIds
      .map((id, i) => ({ id, row: rows[i] as ReturnType<typeof enrolment> }))
      .filter((_, i) => i % 30 === 0)
      .map(({ id, row }, i) => ({
        enrolment_id: id,
        user_id: row.user_id,
        course_id: row.session_id === namedSession.id ? named.id : applied.id,
        session_id: row.session_id,
        certificate_number: i % 13 === 0 ? `CERT-${t.toUpperCase()}-${i}` : `CERT-${unique('n').toUpperCase()}`,
        verification_token: randomBytes(24).toString('base64url'),
        status: 'valid',
        issued_at: now,
        revoked_at: null,
        revocation_reason: null,
        created_at: now,
        updated_at: now,
      }));
    await insertAll(db, 'certificates', certificates);
    // A student who enrolled and then joined the staff: no longer a student, still the holder of
    // their enrolment and certificate, which still match by their name.
    await db
      .updateTable('users')
      .set({ is_admin: true })
      .where('id', '=', students[0] as number)
      .execute();
  });

  test('more than 1,000 matches: total 1000, total_capped, and the first items of them all by id', async () => {
    const defined = definitions(t);
    const students = await defined.students();
    const enrolments = await defined.enrolments();
    assert.ok(students.length > 1000 && enrolments.length > 1000, `${students.length} students, ${enrolments.length} enrolments`);
    for (const limit of [1, 10, 50]) {
      const data = await search(t, limit);
      for (const [group, all] of [
        ['students', students],
        ['enrolments', enrolments],
      ] as const) {
        assert.deepEqual(
          { total: data[group]?.total, total_capped: data[group]?.total_capped, ids: data[group]?.items.map((hit) => hit.id) },
          { total: 1000, total_capped: true, ids: all.slice(0, limit) },
          `${group}, limit ${limit}`,
        );
      }
    }
  });

  test('more than 2,500 enrolments through a course: the first items by id, after the students’ or alone', async () => {
    // `${t}`: its students' enrolments pass the cap before the course's are counted; `carpentry ${t}`:
    // the course's alone.
    for (const q of [t, `carpentry ${t}`]) {
      const all = await definitions(q).enrolments();
      assert.ok(all.length > 2500, `${all.length} enrolments by ${q}`);
      for (const limit of [1, 10, 50]) {
        const data = await search(q, limit);
        assert.deepEqual(
          { total: data.enrolments?.total, total_capped: data.enrolments?.total_capped, ids: data.enrolments?.items.map((hit) => hit.id) },
          { total: 1000, total_capped: true, ids: all.slice(0, limit) },
          `enrolments by ${q}, limit ${limit}`,
        );
      }
    }
  });

  test('fewer matches: the exact total, total_capped false, and the first items by id', async () => {
    // `${t} 0000`: the student who joined the staff, through their enrolments and certificate alone.
    for (const q of [t, `${t} 01`, `${t} 0000`, `u17.${t}`, `masonry ${t}`, `cert-${t}`]) {
      const defined = definitions(q);
      for (const limit of [1, 10, 50]) {
        const data = await search(q, limit);
        const groups = q === t ? (['users', 'certificates'] as const) : (['students', 'users', 'enrolments', 'certificates'] as const);
        for (const group of groups) {
          const all = await defined[group]();
          assert.ok(all.length <= 1000, `${group} by ${q}: ${all.length}`);
          assert.deepEqual(
            { total: data[group]?.total, total_capped: data[group]?.total_capped, ids: data[group]?.items.map((hit) => hit.id) },
            { total: all.length, total_capped: false, ids: all.slice(0, limit) },
            `${group} by ${q}, limit ${limit}`,
          );
        }
      }
    }
  });

  test('every group carries total_capped, false when nothing matches', async () => {
    const data = await search(`${t}-nothing`, 10);
    for (const [name, group] of Object.entries(data)) {
      assert.deepEqual(group, { total: 0, total_capped: false, items: [], restricted: false }, name);
    }
  });
});
