import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import pino from 'pino';
import { assemble } from '../../src/assembly/modules.ts';
import { loadConfig } from '../../src/config.ts';
import { openCopyingConnection } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createBulkRepository } from '../../src/modules/demo/repository.ts';
import { type ScaleSummary, seedScale } from '../../src/modules/demo/scale.ts';
import { fixedClock } from '../../src/platform/clock.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { runCli } from '../support/cli.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { secretKeyEnv } from '../support/env.ts';
import { createTestPlatform } from '../support/platform.ts';

/** Each names a rule of the domain and counts the rows that break it: all must be 0. */
const INVARIANTS: Record<string, string> = {
  'session counters equal the enrolments they count': `
    select count(*) as n from training_sessions s
    where confirmed_count <> (select count(*) from enrolments e where e.session_id = s.id and e.status = 'confirmed')
       or waitlisted_count <> (select count(*) from enrolments e where e.session_id = s.id and e.status = 'waitlisted')
       or completed_count <> (select count(*) from enrolments e
                              where e.session_id = s.id and e.status = 'confirmed' and e.completion_recorded_at is not null)`,
  'no session has more confirmed enrolments than seats':
    'select count(*) as n from training_sessions where confirmed_count > max_participants',
  'only full sessions open for registration with a waitlist have one': `
    select count(*) as n from training_sessions
    where waitlisted_count > 0
      and (confirmed_count < max_participants or waitlist_enabled = false or workflow_state <> 'open_for_registration')`,
  'waitlist positions are 1, 2, 3… in every session': `
    select count(*) as n from (
      select session_id, count(*) as c, count(distinct waitlist_position) as d, min(waitlist_position) as lo, max(waitlist_position) as hi
      from enrolments where status = 'waitlisted' group by session_id) t
    where c <> d or lo <> 1 or hi <> c`,
  'only waitlisted enrolments have a position': `
    select count(*) as n from enrolments where (status = 'waitlisted') <> (waitlist_position is not null)`,
  'at most one live enrolment per student and session': `
    select count(*) as n from (select user_id, session_id from enrolments where status <> 'cancelled'
                               group by user_id, session_id having count(*) > 1) t`,
  'completions only on confirmed enrolments of completed sessions': `
    select count(*) as n from enrolments e join training_sessions s on s.id = e.session_id
    where e.completion_recorded_at is not null and (e.status <> 'confirmed' or s.workflow_state <> 'completed')`,
  'certificates only for confirmed enrolments completed as passed, of the same student, session and course': `
    select count(*) as n from certificates c
    join enrolments e on e.id = c.enrolment_id join training_sessions s on s.id = e.session_id
    where e.status <> 'confirmed' or e.completion_outcome <> 'passed' or e.completion_outcome is null
       or c.user_id <> e.user_id or c.session_id <> e.session_id or c.course_id <> s.course_id`,
  'every enrolled student applied to the course': `
    select count(*) as n from enrolments e join training_sessions s on s.id = e.session_id
    where not exists (select 1 from course_applications a where a.user_id = e.user_id and a.course_id = s.course_id)`,
  'every user but staff is a student (has an application)': `
    select count(*) as n from users u where not u.is_admin and not exists (select 1 from course_applications a where a.user_id = u.id)`,
  'no staff user applied to a course': `
    select count(*) as n from users u where u.is_admin and exists (select 1 from course_applications a where a.user_id = u.id)`,
  'a user is marked a student exactly when it has an application (migration 0027)': `
    select count(*) as n from users u
    where (exists (select 1 from course_applications a where a.user_id = u.id)) <> (u.is_student)`,
  'the students counted per range of ids and email state are the students': `
    select count(*) as n from (
      select coalesce(k.id_range, r.id_range) as id_range from student_counts k
      full join (select id / 4096 as id_range, email_verified, count(*) as students from users
                 where is_student and not is_admin group by id / 4096, email_verified) r
        on r.id_range = k.id_range and r.email_verified = k.email_verified
      where k.students is distinct from r.students and not (k.students = 0 and r.students is null)) t`,
  'the students counted between the marks of each order are the students (migration 0031)': ['name', 'email', 'created_at', 'updated_at']
    .map(
      (order) => `(select count(*) from
        (select coalesce(sum(verified), 0) as v, coalesce(sum(unverified), 0) as u from student_marks_${order}) m,
        (select coalesce(sum(case when email_verified then 1 else 0 end), 0) as v, coalesce(sum(case when email_verified then 0 else 1 end), 0) as u
         from users where is_student and not is_admin) r
        where m.v <> r.v or m.u <> r.u)`,
    )
    .reduce((sum, one) => `${sum} + ${one}`, 'select 0')
    .concat(' as n'),
  'every student’s words and pairs of words carry its keys, and only students have them (migrations 0032, 0034)': `
    select (select count(*) from users u where u.is_student and not u.is_admin and not exists (select 1 from student_terms t where t.id = u.id))
         + (select count(*) from student_terms t left join users u on u.id = t.id
            where u.id is null or not (u.is_student and not u.is_admin) or t.name <> u.name or t.email <> u.email
               or t.email_verified <> u.email_verified or t.created_at <> u.created_at or t.updated_at <> u.updated_at)
         + (select count(*) from student_terms t where not exists (select 1 from student_words w where w.word = t.term)
            and not exists (select 1 from student_pairs p where p.first || ' ' || p.second = t.term))
         + (select count(*) from users u where u.is_student and not u.is_admin and u.name like '% %'
            and not exists (select 1 from student_terms t where t.id = u.id and t.term like '% %'))
      as n`,
  'applications are written student by student, each one’s in the order of its courses (their key ascends with their id)': `
    select count(*) as n from course_applications a join course_applications b on b.id = a.id + 1
    where b.user_id < a.user_id or (b.user_id = a.user_id and b.course_id <= a.course_id)`,
  'nothing happened before what it depends on': `
    select (select count(*) from enrolments e join users u on u.id = e.user_id where e.created_at < u.created_at)
         + (select count(*) from course_applications a join courses c on c.id = a.course_id where a.created_at < c.created_at)
         + (select count(*) from training_sessions s join courses c on c.id = s.course_id where s.created_at < c.created_at)
         + (select count(*) from certificates c join enrolments e on e.id = c.enrolment_id where c.issued_at < e.completion_recorded_at)
      as n`,
};

async function violations(platform: Platform): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const [rule, query] of Object.entries(INVARIANTS)) {
    const { rows } = await sql.raw<{ n: number | string }>(query).execute(platform.database.db);
    found[rule] = Number(rows[0]?.n);
  }
  return found;
}

async function count(platform: Platform, query: string): Promise<Record<string, number>> {
  const { rows } = await sql.raw<{ k: string; n: number | string }>(query).execute(platform.database.db);
  return Object.fromEntries(rows.map((r) => [r.k, Number(r.n)]));
}

/** Every table (SQLite), index, constraint and trigger, as the database describes it, sorted; not the statistics `analyze` leaves. */
async function schemaOf(platform: Platform): Promise<string[]> {
  const query =
    platform.database.dialect === 'postgres'
      ? `select 'index ' || indexname || ': ' || indexdef as d from pg_indexes where schemaname = current_schema()
         union all
         select 'constraint ' || conrelid::regclass::text || '.' || conname || ': ' || pg_get_constraintdef(oid)
         from pg_constraint where connamespace = current_schema()::regnamespace
         union all
         select 'trigger ' || tgrelid::regclass::text || '.' || tgname || ' enabled ' || tgenabled::text from pg_trigger where not tgisinternal`
      : `select type || ' ' || name || ': ' || coalesce(sql, '') as d from sqlite_master where type in ('index', 'trigger', 'table') and name not like 'sqlite_stat%'`;
  const { rows } = await sql.raw<{ d: string }>(query).execute(platform.database.db);
  return rows.map((r) => r.d).sort();
}

describe('academy seed --scale N', () => {
  const databases: TestDatabase[] = [];
  const platforms: Platform[] = [];
  let env: Record<string, string>;
  let platform: Platform;
  let summary: ScaleSummary;

  before(async () => {
    const database = await createTestDatabase({ migrated: true });
    databases.push(database);
    env = { DATABASE_URL: database.url, ACADEMY_DATA_DIR: database.dataDir, ...secretKeyEnv };
    const seeded = await runCli(['--json', 'seed', '--scale', '0.01'], env);
    assert.equal(seeded.code, 0, seeded.stderr);
    assert.equal(seeded.stderr, '', 'no progress under --json');
    summary = JSON.parse(seeded.stdout);
    ({ platform } = assemble(loadConfig(env), { logger: pino({ level: 'silent' }) }));
    platforms.push(platform);
  });
  after(async () => {
    for (const p of platforms) await p.close();
    for (const database of databases) await database.drop();
  });

  test('loads the proportions of N: 1,000 students, 100 staff users, 5,000 enrolments, about 500 certificates for N = 0.01', async () => {
    assert.equal(summary.students, 1000);
    assert.equal(summary.staff, 100);
    assert.equal(summary.courses, 5);
    assert.equal(summary.sessions, 50);
    assert.ok(Math.abs(summary.enrolments - 5000) <= 100, `enrolments: ${summary.enrolments}`);
    assert.ok(summary.certificates > 250 && summary.certificates < 1000, `certificates: ${summary.certificates}`);
    assert.ok(summary.applications >= summary.students);
    assert.equal(summary.confirmed + summary.waitlisted + summary.cancelled, summary.enrolments);
    const tables = await count(
      platform,
      `select 'users' as k, count(*) as n from users union all select 'courses', count(*) from courses
       union all select 'sessions', count(*) from training_sessions union all select 'enrolments', count(*) from enrolments
       union all select 'certificates', count(*) from certificates union all select 'applications', count(*) from course_applications
       union all select 'waitlisted', count(*) from enrolments where status = 'waitlisted'
       union all select 'revoked', count(*) from certificates where status = 'revoked'
       union all select 'staff', count(*) from users where is_admin`,
    );
    assert.deepEqual(tables, {
      users: summary.students + summary.staff,
      staff: summary.staff,
      courses: summary.courses,
      sessions: summary.sessions,
      enrolments: summary.enrolments,
      certificates: summary.certificates,
      applications: summary.applications,
      waitlisted: summary.waitlisted,
      revoked: summary.revoked,
    });
    assert.ok(summary.waitlisted > 0);
  });

  test('puts back every index, key, constraint and trigger it set aside, as the migrations made them', async () => {
    const migrated = await createTestPlatform();
    const [seeded, made] = [await schemaOf(platform), await schemaOf(migrated)];
    assert.ok(made.length > 100, `${made.length} parts of the schema`);
    // What differs, rather than two lists of hundreds.
    assert.deepEqual(
      { onlySeeded: seeded.filter((part) => !made.includes(part)), onlyMigrated: made.filter((part) => !seeded.includes(part)) },
      { onlySeeded: [], onlyMigrated: [] },
    );
  });

  test('holds to the rules of the domain', async () => {
    const found = await violations(platform);
    assert.deepEqual(found, Object.fromEntries(Object.keys(INVARIANTS).map((rule) => [rule, 0])));
  });

  test('the students’ terms are exactly their words and pairs of words, as the triggers would have made them', async () => {
    const { db } = platform.database;
    const students = await db
      .selectFrom('users')
      .select(['id', 'name', 'email'])
      .where(sql<boolean>`is_student and not is_admin`)
      .execute();
    const expected = students.flatMap((u) => {
      const local = u.email.slice(0, u.email.indexOf('@'));
      const words = `${u.name} ${local}`
        .toLowerCase()
        .split(/[ .@]/)
        .filter((w) => /[^0-9]/.test(w));
      const pairs = [u.name, local].flatMap((text) =>
        text
          .toLowerCase()
          .split(' ')
          .flatMap((part, i, parts) => (part && parts[i + 1] ? [`${part} ${parts[i + 1]}`] : [])),
      );
      return [...new Set([...words, ...pairs])].map((term) => `${term}\u0000${Number(u.id)}`);
    });
    const held = (await sql<{ term: string; id: number }>`select term, id from student_terms`.execute(db)).rows.map(
      (r) => `${r.term}\u0000${Number(r.id)}`,
    );
    const sorted = (list: string[]) => list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    assert.ok(expected.length > 2 * summary.students, `terms: ${expected.length}`);
    assert.deepEqual(sorted(held), sorted(expected));
  });

  test('SQLite: the index of the staff holds the staff alone, as the triggers would have (migration 0033)', async (t) => {
    if (platform.database.dialect !== 'sqlite') return t.skip('PostgreSQL’s is a partial index');
    const { db } = platform.database;
    await sql`create virtual table if not exists temp.staff_search_rows using fts5vocab(main, staff_search, 'instance')`.execute(db);
    const { rows } = await sql<{ indexed: number; others: number; staff: number }>`
      select (select count(distinct doc) from temp.staff_search_rows) as indexed,
             (select count(*) from (select distinct doc from temp.staff_search_rows) d join users u on u.id = d.doc where not u.is_admin) as others,
             (select count(*) from users where is_admin) as staff`.execute(db);
    assert.deepEqual(rows[0], { indexed: summary.staff, others: 0, staff: summary.staff });
  });

  test('has courses in every publication state and sessions in every workflow state', async () => {
    const courses = await count(platform, 'select status as k, count(*) as n from courses group by status');
    assert.deepEqual(Object.keys(courses).sort(), ['approved', 'archived', 'draft', 'published', 'review']);
    const sessions = await count(platform, 'select workflow_state as k, count(*) as n from training_sessions group by workflow_state');
    assert.deepEqual(Object.keys(sessions).sort(), [
      'cancelled',
      'completed',
      'draft',
      'in_progress',
      'open_for_registration',
      'scheduled',
    ]);
  });

  test('leaves the ids in order: records created afterwards through the services get the next ids', async () => {
    const course = { slug: 'after-the-seed', title: 'After the seed', code: 'AFTER-1', price: '10.00', currency: 'EUR', language: 'en' };
    const created = await runCli(['--json', 'admin', 'courses', 'create', '--data', JSON.stringify(course)], env);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(JSON.parse(created.stdout).id, summary.courses + 1);
    const student = await runCli(
      ['--json', 'admin', 'students', 'create', '--data', '{"name":"Late Comer","email":"late@example.org"}'],
      env,
    );
    assert.equal(student.code, 0, student.stderr);
    assert.equal(JSON.parse(student.stdout).id, summary.students + summary.staff + 1);
    // The triggers set aside during the load are back: a first application makes a student, counted.
    const applied = await runCli(
      [
        '--json',
        'admin',
        'applications',
        'create',
        '--data',
        JSON.stringify({ student_id: JSON.parse(student.stdout).id, course: 'after-the-seed' }),
      ],
      env,
    );
    assert.equal(applied.code, 0, applied.stderr);
    assert.deepEqual(await violations(platform), Object.fromEntries(Object.keys(INVARIANTS).map((rule) => [rule, 0])));
    const { rows } = await sql<{ n: number | string }>`select sum(students) as n from student_counts`.execute(platform.database.db);
    assert.equal(Number(rows[0]?.n), summary.students + 1);
  });

  test('refuses a database that holds users or a catalogue, and leaves it as it was', async () => {
    const again = await runCli(['seed', '--scale', '0.01'], env);
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /already holds users or a catalogue/);
    const tables = await count(platform, `select 'enrolments' as k, count(*) as n from enrolments`);
    assert.equal(tables.enrolments, summary.enrolments);
  });

  test('shows its progress on stderr, and refuses a scale out of range', async () => {
    const database = await createTestDatabase({ migrated: true });
    databases.push(database);
    const fresh = { DATABASE_URL: database.url, ACADEMY_DATA_DIR: database.dataDir };
    for (const bad of ['0', 'abc', '11', '-1']) {
      const refused = await runCli(['seed', '--scale', bad], fresh);
      assert.notEqual(refused.code, 0, bad);
      assert.match(refused.stderr, /--scale must be a number/);
    }
    assert.notEqual((await runCli(['seed', '--demo', '--scale', '1'], fresh)).code, 0);
    const seeded = await runCli(['seed', '--scale', '0.002'], fresh);
    assert.equal(seeded.code, 0, seeded.stderr);
    assert.match(seeded.stderr, /\[#{20}\] 100%/);
    // After the rows, each step of putting the schema back, the last one the statistics.
    assert.match(seeded.stderr, /100% {2}(?:index|constraint) \w+ \(step 1 of \d+\)/);
    assert.match(seeded.stderr, /100% {2}words of the students \(step \d+ of \d+\)/);
    const [, last, steps] = /100% {2}statistics \(step (\d+) of (\d+)\)/.exec(seeded.stderr) ?? [];
    assert.ok(last !== undefined && last === steps, 'the statistics are the last step');
    assert.match(seeded.stdout, /^Loaded scale 0\.002 in [\d.]+ s: 200 students, 5 courses, 12 sessions/);
  });

  test('is the same data set on every run (all but the secret verification tokens)', async () => {
    const clock = fixedClock('2027-05-04T08:15:00.000Z');
    const snapshot = async () => {
      const p = await createTestPlatform({ clock });
      await migrate(p.database);
      await seedScale(p, 0.003);
      const { db } = p.database;
      return {
        users: await db
          .selectFrom('users')
          .select(['id', 'name', 'email', 'email_verified', 'created_at', 'updated_at'])
          .orderBy('id')
          .execute(),
        sessions: await db.selectFrom('training_sessions').selectAll().orderBy('id').execute(),
        enrolments: await db.selectFrom('enrolments').selectAll().orderBy('id').execute(),
        certificates: await db
          .selectFrom('certificates')
          .select(['id', 'enrolment_id', 'certificate_number', 'status', 'issued_at', 'revoked_at'])
          .orderBy('id')
          .execute(),
        applications: await db.selectFrom('course_applications').selectAll().orderBy('id').execute(),
      };
    };
    const [first, second] = [await snapshot(), await snapshot()];
    assert.ok(first.enrolments.length > 1000);
    assert.deepEqual(first, second);
  });

  test('writes text as it is, whatever it holds: tabs, newlines, backslashes, quotes, nulls (PostgreSQL copies it)', async () => {
    const p = await createTestPlatform();
    platforms.push(p);
    await migrate(p.database);
    const connection = p.database.dialect === 'postgres' ? await openCopyingConnection(p.database.url) : null;
    try {
      const bulk = connection
        ? createBulkRepository(connection.db, 'postgres', connection.copyFrom)
        : createBulkRepository(p.database.db, p.database.dialect);
      const names = ['tab\there', 'line\nbreak\r\nend', 'back\\slash \\N \\t', 'O\'Brien "quoted"', 'Zoë Müller 😀', '\\'];
      const at = '2027-05-04T08:15:00.000Z';
      await bulk.load(async (insert) => {
        await insert(
          'users',
          names.map((name, i) => ({
            id: i + 1,
            name,
            email: `user${i}@example.com`,
            status: 'active',
            is_admin: i % 2 === 0,
            is_student: i % 2 === 1,
            permissions: '[]',
            email_verified: i % 3 === 0,
            job_title: i % 2 === 0 ? null : '\\N',
            created_at: at,
            updated_at: at,
          })),
          () => {},
        );
      });
      const rows = await p.database.db
        .selectFrom('users')
        .select(['name', 'job_title', 'is_admin', 'email_verified'])
        .orderBy('id')
        .execute();
      assert.deepEqual(
        rows.map((r) => ({ ...r, is_admin: Boolean(r.is_admin), email_verified: Boolean(r.email_verified) })),
        names.map((name, i) => ({ name, job_title: i % 2 === 0 ? null : '\\N', is_admin: i % 2 === 0, email_verified: i % 3 === 0 })),
      );
    } finally {
      await connection?.close();
    }
  });
});
