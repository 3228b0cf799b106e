import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { readSnapshot } from '../../src/db/snapshot.ts';
import { MARK_ORDERS, marksTable, markText, remakeMarks, splitCrowdedMarks } from '../../src/db/student-marks.ts';
import { outsideWrites } from '../support/database.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

// GET /students without a search reads its total from `student_counts` and finds a page from the
// counts per range of ids (id order) or from the nearer end of the students' index of its order
// (ADR 0024). Every page must be exactly what sorting every student gives, and the counts must follow
// every change that makes or unmakes a student: a first application, a verified email, staff rights.
describe('GET /students: pages of the whole list found without reading the students before them', () => {
  let app: TestApp;
  let make: Fixtures;
  let token: string;

  before(async () => {
    // Every page of every order, several times over: more than the per-token rate allows.
    app = await createTestApp({ env: { ACADEMY_RATE_LIMIT_PER_MINUTE: '1000000' } });
    make = fixtures(app.platform);
    token = await app.token(['students:read']);
    const course = await make.course();
    // More students than one range of ids holds would need thousands; ids far apart stand in for them.
    for (let i = 0; i < 24; i++) {
      const user = await make.student({ name: `${unique('Page')} ${i % 5}`, email_verified: i % 3 === 0 }, { courseId: course.id });
      if (i % 6 === 5) {
        // Move the next user's id into a later range of 4096 ids.
        await sql`insert into users (id, name, email, status, is_admin, permissions, created_at, updated_at)
          values (${user.id + 5000 + i * 10}, 'Spacer', ${`${unique('spacer')}@example.test`}, 'active', ${app.platform.database.dialect === 'sqlite' ? 0 : false}, '[]', ${new Date().toISOString()}, ${new Date().toISOString()})`.execute(
          app.platform.database.db,
        );
        if (app.platform.database.dialect === 'postgres') {
          await sql`select setval(pg_get_serial_sequence('users', 'id'), (select max(id) from users))`.execute(app.platform.database.db);
        }
      }
    }
  });

  type Row = { id: number };
  const apiPage = async (query: string, as = token) => {
    const res = await app.http.inject({ method: 'GET', url: `/api/v1/students?${query}`, headers: bearer(as) });
    assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
    const body = res.json() as { data: Row[]; meta: { total: number } };
    return { ids: body.data.map((r) => r.id), total: body.meta.total };
  };

  /** Every student in the order asked, by the definition (an application, no staff rights), not by the counts. */
  const everyStudent = async (status: string | undefined, sort: string, direction: 'asc' | 'desc') => {
    const { db } = app.platform.database;
    let query = db
      .selectFrom('users')
      .select('users.id')
      .where(sql<boolean>`not users.is_admin`)
      .where(sql<boolean>`exists (select 1 from course_applications a where a.user_id = users.id)`);
    if (status) query = query.where('users.email_verified', '=', (status === 'verified') as never);
    const rows = await query
      .orderBy(sql.ref(`users.${sort}`), direction)
      .orderBy('users.id', direction)
      .execute();
    return rows.map((r) => Number(r.id));
  };

  /** Runs `check` until no other test wrote while it ran (they share the database on PostgreSQL). */
  const quietly = async (check: () => Promise<void>) => {
    for (let attempt = 1; ; attempt++) {
      const before = await outsideWrites(app.platform.database);
      try {
        await check();
        if (before === (await outsideWrites(app.platform.database))) return;
      } catch (error) {
        if (before === (await outsideWrites(app.platform.database)) || attempt >= 30) throw error;
      }
      if (attempt >= 30) return;
    }
  };

  /** Checks the first, middle, last and past-the-end pages of every order, status and direction. */
  const everyPageIsTheSlice = async (perPage = 7) => {
    for (const status of [undefined, 'verified', 'unverified']) {
      for (const sort of ['id', 'name', 'email', 'created_at', 'updated_at']) {
        for (const direction of ['asc', 'desc'] as const) {
          // A token of its own for each order: the checks ask more than one token's rate allows.
          const reader = await app.token(['students:read']);
          await quietly(async () => {
            const all = await everyStudent(status, sort, direction);
            const last = Math.max(1, Math.ceil(all.length / perPage));
            // The first pages, the middle, both sides of the end, and past it; twice (the second
            // time a page past the middle is read from the far end).
            for (const page of [1, 2, Math.ceil(last / 2), last - 1, last, last + 1, 1, Math.ceil(last / 2) + 1, last]) {
              if (page < 1) continue;
              const query = `sort=${sort}&direction=${direction}&per_page=${perPage}&page=${page}${status ? `&status=${status}` : ''}`;
              const got = await apiPage(query, reader);
              assert.equal(got.total, all.length, `${query}: total`);
              assert.deepEqual(got.ids, all.slice((page - 1) * perPage, page * perPage), `${query}: the page`);
            }
          });
        }
      }
    }
  };

  test('every page of every order, status and direction is the sorted list’s slice, with its total', async () => {
    await everyPageIsTheSlice();
  });

  test('the counts follow a first application, a verified email and staff rights, in the writing transaction', async () => {
    const { db, dialect } = app.platform.database;
    const counts = () =>
      readSnapshot(db, dialect, async (executor) => {
        const kept = await executor
          .selectFrom('student_counts')
          .select(['email_verified', sql<number>`sum(students)`.as('n')])
          .groupBy('email_verified')
          .execute();
        const real = await executor
          .selectFrom('users')
          .select(['email_verified', sql<number>`count(*)`.as('n')])
          .where(sql<boolean>`not is_admin and exists (select 1 from course_applications a where a.user_id = users.id)`)
          .groupBy('email_verified')
          .execute();
        const byState = (rows: { email_verified: unknown; n: unknown }[]) =>
          Object.fromEntries(
            rows
              .map((r) => [String(Boolean(Number(r.email_verified) || r.email_verified === true)), Number(r.n)])
              .filter(([, n]) => n !== 0),
          );
        return { kept: byState(kept), real: byState(real) };
      });
    const agree = async (what: string) => {
      const { kept, real } = await counts();
      assert.deepEqual(kept, real, what);
    };
    await agree('at the start');

    const user = await make.user({ name: unique('Later'), email_verified: false });
    await agree('a user without an application is no student');
    await make.application({ user_id: user.id });
    await make.application({ user_id: user.id });
    await agree('the first application makes a student, the second changes nothing');
    assert.equal(
      Boolean(Number((await db.selectFrom('users').select('is_student').where('id', '=', user.id).executeTakeFirstOrThrow()).is_student)),
      true,
    );

    const yes = dialect === 'sqlite' ? 1 : true;
    const no = dialect === 'sqlite' ? 0 : false;
    await sql`update users set email_verified = ${yes} where id = ${user.id}`.execute(db);
    await agree('a verified email moves the student to the other count');
    await sql`update users set is_admin = ${yes} where id = ${user.id}`.execute(db);
    await agree('staff rights make the user no student');
    await sql`update users set is_admin = ${no}, email_verified = ${no} where id = ${user.id}`.execute(db);
    await agree('and taking them away a student again');
    await sql`update users set name = ${unique('Renamed')} where id = ${user.id}`.execute(db);
    await agree('a change of another column changes no count');

    // A write that fails takes its counts with it.
    const other = await make.user({ name: unique('Rolled back') });
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await sql`insert into course_applications (user_id, course_id, source, created_at, updated_at)
          values (${other.id}, (select min(id) from courses), 'admin', ${new Date().toISOString()}, ${new Date().toISOString()})`.execute(
          trx,
        );
        throw new Error('roll back');
      }),
      /roll back/,
    );
    await agree('after a rolled back application');
  });

  test('the marks of each order count the students between them; pages across many buckets, after writes and cuts', async () => {
    const { db, dialect } = app.platform.database;
    // Buckets of three students: every page of the checks spans several, and most start inside one.
    for (const order of MARK_ORDERS) await db.transaction().execute((trx) => remakeMarks(trx, dialect, order, 3));

    /** Each bucket's counts, as the marks keep them and as counting the students between the marks gives them. */
    const marksAgree = (what: string) =>
      quietly(async () => {
        await readSnapshot(db, dialect, async (executor) => {
          for (const order of MARK_ORDERS) {
            const { rows: marks } = await sql<{ mark: string; id: number; verified: number; unverified: number }>`
              select ${markText(dialect, 'mark')} as mark, id, verified, unverified from ${sql.table(marksTable(order))} order by mark, id`.execute(
              executor,
            );
            assert.ok(marks.length > 3, `${what}: ${order} has buckets (${marks.length})`);
            for (const [i, m] of marks.entries()) {
              const next = marks[i + 1];
              const { rows } = await sql<{ verified: number | string; unverified: number | string }>`
                select coalesce(sum(case when email_verified then 1 else 0 end), 0) as verified,
                       coalesce(sum(case when email_verified then 0 else 1 end), 0) as unverified
                from users where is_student and not is_admin
                  and (${sql.ref(order)}, id) >= (${m.mark}, ${m.id})
                  ${next ? sql`and (${sql.ref(order)}, id) < (${next.mark}, ${next.id})` : sql``}`.execute(executor);
              assert.deepEqual(
                [Number(m.verified), Number(m.unverified)],
                [Number(rows[0]?.verified), Number(rows[0]?.unverified)],
                `${what}: the bucket of ${order} from ${m.mark} #${m.id}`,
              );
            }
          }
        });
      });
    await marksAgree('made anew');
    await everyPageIsTheSlice(4);

    // A student whose keys sort before and after every other, a rename across buckets, a verified
    // email, staff rights given and taken, a change of updated_at alone.
    const course = await make.course();
    const first = await make.student({ name: '  Aaron First' }, { courseId: course.id });
    await make.student({ name: 'zzz Last' }, { courseId: course.id });
    const yes = dialect === 'sqlite' ? 1 : true;
    const no = dialect === 'sqlite' ? 0 : false;
    await sql`update users set name = ${'zz Renamed'}, email = ${`aaa.${unique('r').toLowerCase()}@example.test`} where id = ${first.id}`.execute(
      db,
    );
    await sql`update users set email_verified = ${yes} where id = ${first.id}`.execute(db);
    const staff = await make.student({ name: 'Middle Staff' }, { courseId: course.id });
    await sql`update users set is_admin = ${yes} where id = ${staff.id}`.execute(db);
    await sql`update users set is_admin = ${no}, updated_at = ${'2000-01-01T00:00:00.000Z'} where id = ${staff.id}`.execute(db);
    await sql`update users set created_at = ${'2099-01-01T00:00:00.000Z'} where id = ${staff.id}`.execute(db);
    await marksAgree('after the writes');
    await everyPageIsTheSlice(5);

    // Buckets that grew past four times the size are cut again; pages stay what they were.
    const before = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(marksTable('name'))}`.execute(db);
    await db.transaction().execute((trx) => remakeMarks(trx, dialect, 'name', 1000));
    const cut = await splitCrowdedMarks(db, dialect, 2);
    assert.ok(cut.cut >= 1 && cut.added >= 1, `the one bucket of the names was cut (${JSON.stringify(cut)})`);
    const after = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(marksTable('name'))}`.execute(db);
    assert.ok(Number(after.rows[0]?.n) > 1, `marks after the cut: ${after.rows[0]?.n} (before the remake: ${before.rows[0]?.n})`);
    await marksAgree('after a cut');
    await everyPageIsTheSlice(6);
  });

  test('a search’s pages in every order and direction are the sorted matches’ slices, twice', async () => {
    // The second time PostgreSQL knows the matches' count and may walk an order's index instead of
    // sorting what the trigram index found (`matchesFirst`): both ways give the same pages.
    // With dots, a separator of words: searched through the trigram index, not the words (ADR 0026).
    const tag = unique('Sought').toLowerCase().replace(/-/g, '.');
    const course = await make.course();
    for (let i = 0; i < 9; i++) {
      await make.student({ name: `${i % 2 ? 'Zed' : 'Abe'} ${tag} ${i}`, email_verified: i % 3 === 0 }, { courseId: course.id });
    }
    const { db } = app.platform.database;
    const reader = await app.token(['students:read']);
    for (const round of [1, 2]) {
      for (const sort of ['name', 'email', 'created_at', 'updated_at', 'id']) {
        for (const direction of ['asc', 'desc'] as const) {
          const rows = await db
            .selectFrom('users')
            .select('users.id')
            .where(sql<boolean>`lower(users.name) like ${`%${tag}%`}`)
            .orderBy(sql.ref(`users.${sort}`), direction)
            .orderBy('users.id', direction)
            .execute();
          const all = rows.map((r) => Number(r.id));
          assert.equal(all.length, 9);
          for (const page of [1, 2, 3, 4]) {
            const query = `search=${tag}&sort=${sort}&direction=${direction}&per_page=4&page=${page}`;
            const got = await apiPage(query, reader);
            assert.equal(got.total, 9, `${query} (round ${round}): total`);
            assert.deepEqual(got.ids, all.slice((page - 1) * 4, page * 4), `${query} (round ${round}): the page`);
          }
        }
      }
    }
  });
});
