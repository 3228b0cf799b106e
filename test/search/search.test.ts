import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type KyselyPlugin, sql } from 'kysely';
import { buildApp } from '../../src/assembly/app.ts';
import { modules } from '../../src/assembly/modules.ts';
import { type Database, openDatabase } from '../../src/db/database.ts';
import { executePrepared } from '../../src/db/prepared.ts';
import { SEARCH_SOURCES, textMatchPlan } from '../../src/db/search.ts';
import { versionCheck } from '../../src/db/totals.ts';
import { clearTrigramSamples, ensureTrigramSamples, estimatedRows } from '../../src/db/trigrams.ts';
import type { SearchGroup } from '../../src/modules/manifest.ts';
import { createSearchService, searchGroupsOf } from '../../src/modules/search/service.ts';
import { createSearchStatement } from '../../src/modules/search/statement.ts';
import { operatorContext, type ServiceContext } from '../../src/platform/context.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

interface Hit {
  id: number;
  type: string;
  title: string;
  path: string;
  [detail: string]: unknown;
}
type Results = Record<string, { total: number; total_capped: boolean; items: Hit[]; restricted: boolean }>;

const GROUPS = [
  'assessments',
  'certificates',
  'courses',
  'documents',
  'enrolments',
  'meetings',
  'resources',
  'sessions',
  'students',
  'workflows',
];
const EVERY_GROUP = [...GROUPS, 'notifications', 'reports', 'users'].sort();

/** The read scope of each group's records, besides `search:read`: together they show every group. */
const READ_SCOPES = [
  'users:read',
  'identity-notifications:read',
  'students:read',
  'courses:read',
  'enrolments:read',
  'certificates:read',
  'workflows:read',
  'documents:read',
  'reports:read',
];
/** The groups whose records `courses:read` reads: courses and what their sessions hold. */
const COURSE_GROUPS = ['assessments', 'courses', 'meetings', 'resources', 'sessions'];

describe('GET /search', () => {
  let app: TestApp;
  let make: Fixtures;
  let token: string;
  /** A second connection (pool), as another process would write. */
  let other: Database;

  const get = (url: string, headers: Record<string, string> = bearer(token)) =>
    app.http.inject({ method: 'GET', url: `/api/v1${url}`, headers });
  const search = async (q: string, extra = ''): Promise<Results> => {
    const res = await get(`/search?q=${encodeURIComponent(q)}${extra}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };
  /** A tag of letters only, unique in this run, that no other record contains. */
  const tag = () =>
    unique('t')
      .replace(/[^a-z0-9]/gi, '')
      .toLowerCase();

  /** The server's snapshot on PostgreSQL (the version of kept answers); SQLite's file is this test file's own. */
  const snapshot = async () =>
    app.platform.database.dialect === 'postgres'
      ? (await sql<{ v: string }>`select pg_current_snapshot()::text as v`.execute(app.platform.database.db)).rows[0]?.v
      : 'sqlite: other test files write other files';

  before(async () => {
    app = await createTestApp();
    make = fixtures(app.platform);
    token = await app.token(['search:read', ...READ_SCOPES]);
    other = openDatabase(app.platform.database.url);
  });

  after(async () => {
    await other.close();
  });

  test('a blank or absent q returns every group with total 0 and no items', async () => {
    await make.student({ name: 'Anybody' });
    for (const url of ['/search', '/search?q=', '/search?q=%20%20%09', '/search?q=%1F%0A', '/search?limit=3']) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      const data: Results = res.json().data;
      assert.deepEqual(Object.keys(data).sort(), EVERY_GROUP);
      for (const group of EVERY_GROUP)
        assert.deepEqual(data[group], { total: 0, total_capped: false, items: [], restricted: false }, `${url} ${group}`);
    }
  });

  test('every group is present, and each hit carries its id, type, title and a path that reads it', async () => {
    const t = tag();
    const course = await make.course({ title: `Course ${t}`, slug: `c-${t}` });
    const session = await make.session({ course_id: course.id, name: `Session ${t}` });
    const assessment = await make.assessment({ session_id: session.id, title: `Exam ${t}` });
    const resource = await make.resource({ session_id: session.id, title: `Slides ${t}` });
    const meeting = await make.meeting({ session_id: session.id, location: `Room ${t}` });
    const student = await make.student({ name: `Student ${t}` }, { courseId: course.id });
    const enrolment = await make.enrolment({ session_id: session.id, user_id: student.id });
    const certificate = await make.certificate({ enrolment_id: enrolment.id, certificate_number: `CERT-${t.toUpperCase()}` });
    const workflow = await make.workflow({ workflow: 'document_approval', subject_type: `doc_${t}`, subject_id: 1 });

    const data = await search(t);
    for (const group of GROUPS) assert.ok(data[group], `group ${group} missing`);
    const only = (group: string) => {
      const found = data[group];
      assert.equal(found?.total, found?.items.length, group);
      return found?.items.map((hit) => [hit.type, hit.id, hit.path]);
    };
    assert.deepEqual(only('courses'), [['course', course.id, `/api/v1/courses/c-${t}`]]);
    assert.deepEqual(only('sessions'), [['session', session.id, `/api/v1/courses/c-${t}/sessions/${session.id}`]]);
    assert.deepEqual(only('assessments'), [
      ['assessment', assessment.id, `/api/v1/courses/c-${t}/sessions/${session.id}/assessments/${assessment.id}`],
    ]);
    assert.deepEqual(only('resources'), [
      ['resource', resource.id, `/api/v1/courses/c-${t}/sessions/${session.id}/resources/${resource.id}`],
    ]);
    assert.deepEqual(only('meetings'), [['meeting', meeting.id, `/api/v1/courses/c-${t}/sessions/${session.id}/meetings/${meeting.id}`]]);
    assert.deepEqual(only('students'), [['student', student.id, `/api/v1/students/${student.id}`]]);
    // Found by the student's name and by the course's title: one hit all the same.
    assert.deepEqual(only('enrolments'), [['enrolment', enrolment.id, `/api/v1/enrolments/${enrolment.id}`]]);
    assert.deepEqual(only('certificates'), [['certificate', certificate.id, `/api/v1/certificates/${certificate.id}`]]);
    assert.deepEqual(only('workflows'), [['workflow', workflow.id, `/api/v1/workflows/${workflow.id}`]]);
    assert.equal(data.students?.items[0]?.title, `Student ${t}`);
    assert.equal(data.certificates?.items[0]?.title, `CERT-${t.toUpperCase()}`);

    const all = await app.token(['*']);
    for (const group of GROUPS) {
      for (const hit of data[group]?.items ?? []) {
        const res = await app.http.inject({ method: 'GET', url: hit.path, headers: bearer(all) });
        assert.equal(res.statusCode, 200, `${hit.path}: ${res.body}`);
        assert.equal(res.json().data.id, hit.id, hit.path);
      }
    }
  });

  test('a draft learning resource never appears; published, it does', async () => {
    const t = tag();
    const draft = await make.resource({ title: `Draft ${t}`, status: 'draft', published_at: null });
    const published = await make.resource({ title: `Published ${t}` });
    assert.deepEqual(
      (await search(t)).resources?.items.map((hit) => hit.id),
      [published.id],
    );
    assert.equal((await search(`draft ${t}`)).resources?.total, 0);
    assert.equal((await search(t)).resources?.total, 1);

    await app.services.resources.publish(operatorContext(app.platform), draft.id);
    assert.deepEqual((await search(t)).resources?.items.map((hit) => hit.id).sort(), [draft.id, published.id].sort());
  });

  test('a student matches by email or name, case-insensitively, beyond ASCII too', async () => {
    const t = tag();
    const student = await make.student({ name: `Ünal Öztürk ${t}`, email: `unal.${t}@example.org` });
    await make.user({ name: `Ünal Staff ${t}`, email: `staff.${t}@example.org`, is_admin: true });
    const ids = async (q: string) => (await search(q)).students?.items.map((hit) => hit.id);
    assert.deepEqual(await ids(`UNAL.${t.toUpperCase()}@EXAMPLE`), [student.id]);
    assert.deepEqual(await ids(`öztürk ${t}`), [student.id]);
    assert.deepEqual(await ids(`ÜNAL ÖZTÜRK ${t.toUpperCase()}`), [student.id]);
    assert.equal((await search(`unal.${t}`)).students?.items[0]?.email, `unal.${t}@example.org`);
    assert.deepEqual(await ids(`staff.${t}`), [], 'a staff user is no student');
  });

  test('a long text looked up by its rarest part still matches whole: a neighbour sharing that part is not a hit', async () => {
    const t = tag();
    const one = await make.student({ name: `Ines Kaya ${t}`, email: `ines.kaya.${t}.12@lookup.example` });
    const other = await make.student({ name: `Ines Kaya ${t}x`, email: `ines.kaya.${t}.13@lookup.example` });
    const ids = async (q: string) => (await search(q)).students?.items.map((hit) => hit.id).sort((a, b) => a - b);
    // Whether or not the tables are sampled yet, a long text matches whole.
    assert.deepEqual(await ids(`ines.kaya.${t}.12@lookup.example`), [one.id]);
    assert.deepEqual(await ids(`INES.KAYA.${t.toUpperCase()}.13@LOOKUP.EXAMPLE`), [other.id]);
    assert.deepEqual(await ids(`ines.kaya.${t}.1`), [one.id, other.id]);
    assert.deepEqual(await ids(`ines.kaya.${t}.14@lookup.example`), []);
    assert.deepEqual(await ids(`Ines Kaya ${t}x`), [other.id]);
    const certificates = await search(`ines.kaya.${t}.12@lookup.example`);
    assert.equal(certificates.students?.total, 1);
  });

  test('a text whose every part many rows share is looked up by trigrams apart, and still matches whole', async () => {
    const t = tag();
    // 36 students named by six first and six last words, each word carrying the tag: every run of a
    // name's characters is in six of them at least, while two trigrams of different words are in one.
    const firsts = ['alpha', 'bravo', 'carlo', 'delta', 'ember', 'fjord'].map((word) => `${word}${t}`);
    const lasts = ['gamma', 'hotel', 'india', 'juliet', 'kilo', 'lima'].map((word) => `${t}${word}`);
    const named = new Map<string, number>();
    let n = 0;
    for (const first of firsts) {
      for (const last of lasts) {
        const student = await make.student({ name: `${first} ${last}`, email: `s${n++}.${t}@apart.example` });
        named.set(`${first} ${last}`, student.id);
      }
    }
    // Neighbours holding both words' trigrams: the other way round, and with a word between them.
    const reversed = await make.student({ name: `${lasts[0]} ${firsts[0]}`, email: `r.${t}@apart.example` });
    const between = await make.student({ name: `${firsts[0]} and ${lasts[0]}`, email: `b.${t}@apart.example` });
    // Samples taken again with these rows in them (a search takes them in the background on SQLite).
    clearTrigramSamples();
    const { db, dialect } = app.platform.database;
    await ensureTrigramSamples(db, dialect, SEARCH_SOURCES, (error) => assert.fail(String(error)));
    const needle = `${firsts[0]} ${lasts[0]}`;
    const found = await search(needle.toUpperCase());
    const plan = textMatchPlan(app.platform.database.dialect, 'users', needle);
    assert.equal(plan.recheck, true, plan.lookup);
    assert.match(plan.lookup, app.platform.database.dialect === 'sqlite' ? /^"[^"]{3}"( AND "[^"]{3}")+$/ : /^%[^%]{3}(%[^%]{3})+%$/);
    assert.deepEqual(
      found.students?.items.map((hit) => hit.id),
      [named.get(needle)],
    );
    assert.equal(found.students?.total, 1);
    for (const [name, id] of [...named].filter((_, i) => i % 7 === 3)) {
      assert.deepEqual(
        (await search(name)).students?.items.map((hit) => hit.id),
        [id],
        name,
      );
    }
    const words = (await search(`${lasts[0]} ${firsts[0]}`)).students?.items.map((hit) => hit.id);
    assert.deepEqual(words, [reversed.id]);
    assert.equal((await search(`${firsts[0]} and`)).students?.items[0]?.id, between.id);
  });

  test('a server that warms takes the samples as it becomes ready, before any search asks', async () => {
    const t = tag();
    await make.student({ name: `Warm ${t}`, email: `warm.${t}@learners.example` });
    clearTrigramSamples();
    assert.equal(estimatedRows('users', 'learners'), null, 'no sample yet');
    // The same services, served by an app that warms (`academy serve`); no request is made to it.
    const served = await buildApp({ platform: app.platform, services: app.services }, { warm: true });
    try {
      await served.http.ready();
      // Each table's sample arrives in its own time: waited for until both are there (or 10 s).
      const sampled = () => estimatedRows('users', 'learners') !== null && estimatedRows('courses', 'course') !== null;
      for (let wait = 0; !sampled() && wait < 400; wait++) await new Promise((r) => setTimeout(r, 25));
      assert.notEqual(estimatedRows('users', 'learners'), null, 'the users were sampled');
      assert.notEqual(estimatedRows('courses', 'course'), null, 'and the other tables searched');
    } finally {
      await served.http.close();
    }
    // An app that does not warm (tests, by default) takes none until a search needs them.
    clearTrigramSamples();
    const cold = await buildApp({ platform: app.platform, services: app.services });
    try {
      await cold.http.ready();
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(estimatedRows('users', 'learners'), null);
    } finally {
      await cold.http.close();
    }
  });

  test('short text, and text with %, _ and quotes, match literally', async () => {
    const t = tag();
    const percent = await make.course({ title: `100% ${t}` });
    const underscore = await make.course({ title: `a_b ${t}` });
    const quoted = await make.course({ title: `The "best" ${t}` });
    const ids = async (q: string) => (await search(q)).courses?.items.map((hit) => hit.id);
    assert.deepEqual(await ids(`100% ${t}`), [percent.id]);
    assert.deepEqual(await ids(`a_b ${t}`), [underscore.id]);
    assert.deepEqual(await ids(`"best" ${t}`), [quoted.id]);
    assert.deepEqual(await ids(`10_% ${t}`), []);
    assert.deepEqual(await ids(`"best ${t}`), []);
    // One or two characters: no trigram to look up, still found.
    const short = await make.course({ title: 'Qz', code: `QZ-${t}`, slug: `qz-${t}` });
    assert.ok((await ids('qz'))?.includes(short.id));
    assert.ok(((await search('Q', '&limit=50')).courses?.total ?? 0) >= 1);
  });

  test('each group is capped at limit (default 10) while total counts every match', async () => {
    const t = tag();
    const created = [];
    for (let i = 0; i < 12; i += 1) created.push(await make.course({ title: `Capped ${t} ${String(i).padStart(2, '0')}` }));
    const byDefault = (await search(t)).courses;
    assert.equal(byDefault?.total, 12);
    assert.equal(byDefault?.items.length, 10);
    assert.deepEqual(
      byDefault?.items.map((hit) => hit.id),
      created.slice(0, 10).map((course) => course.id),
      'ordered by title',
    );
    const five = (await search(t, '&limit=5')).courses;
    assert.deepEqual([five?.total, five?.items.length], [12, 5]);
    const fifty = (await search(t, '&limit=50')).courses;
    assert.deepEqual([fifty?.total, fifty?.items.length], [12, 12]);
    assert.deepEqual([(await search(t, '&limit=1')).courses?.items.length], [1]);
    // Every limit gives the first `limit` of the same order, and the same total (a statement built
    // for a larger page serves it).
    const all = created.map((course) => course.id);
    for (const limit of [1, 3, 4, 6, 7, 11, 12, 13, 21]) {
      const courses = (await search(t, `&limit=${limit}`)).courses;
      assert.equal(courses?.total, 12, `limit ${limit}`);
      assert.deepEqual(
        courses?.items.map((hit) => hit.id),
        all.slice(0, limit),
        `limit ${limit}`,
      );
    }
  });

  test('a change is searchable as soon as it is written, and a renamed record no longer by its old name', async () => {
    const t = tag();
    const ctx = operatorContext(app.platform);
    const students = app.services.students;
    const user = await students.create(ctx, { name: `Fresh ${t}`, email: `fresh.${t}@example.org` });
    assert.equal((await search(`fresh ${t}`)).students?.total, 0, 'not a student before an application');
    await make.application({ user_id: user.id });
    assert.deepEqual(
      (await search(`fresh ${t}`)).students?.items.map((hit) => hit.id),
      [user.id],
    );

    await app.platform.database.db
      .updateTable('users')
      .set({ name: `Renamed ${t}` })
      .where('id', '=', user.id)
      .execute();
    assert.equal((await search(`fresh ${t}`)).students?.total, 0);
    assert.deepEqual(
      (await search(`renamed ${t}`)).students?.items.map((hit) => hit.title),
      [`Renamed ${t}`],
    );
    await app.platform.database.db.deleteFrom('users').where('id', '=', user.id).execute();
    assert.equal((await search(`renamed ${t}`)).students?.total, 0);
  });

  test('enrolments match by student or course; certificates by number or holder; workflows by key', async () => {
    const t = tag();
    const course = await make.course({ title: `Welding ${t}` });
    const session = await make.session({ course_id: course.id });
    const ada = await make.student({ name: `Ada ${t}` });
    const bob = await make.student({ name: `Bob ${t}` });
    const adaEnrolment = await make.enrolment({ session_id: session.id, user_id: ada.id });
    const bobEnrolment = await make.enrolment({ session_id: session.id, user_id: bob.id, completion_outcome: 'passed' });
    const ids = async (q: string, group: string) => (await search(q))[group]?.items.map((hit) => hit.id);
    assert.deepEqual(await ids(`ada ${t}`, 'enrolments'), [adaEnrolment.id]);
    assert.deepEqual(await ids(`welding ${t}`, 'enrolments'), [adaEnrolment.id, bobEnrolment.id]);

    const certificate = await make.certificate({ enrolment_id: bobEnrolment.id });
    assert.deepEqual(await ids(`bob ${t}`, 'certificates'), [certificate.id]);
    assert.deepEqual(await ids(certificate.certificate_number.toLowerCase(), 'certificates'), [certificate.id]);
    assert.equal((await search(`bob ${t}`)).certificates?.items[0]?.holder_name, `Bob ${t}`);

    const workflows = (await search('document_approval', '&limit=50')).workflows;
    const instance = await make.workflow({ workflow: 'document_approval', subject_type: 'document', subject_id: 9 });
    const after = (await search('document_approval', '&limit=50')).workflows;
    assert.equal(after?.total, (workflows?.total ?? 0) + 1);
    assert.ok(after?.items.some((hit) => hit.id === instance.id) || (after?.total ?? 0) > 50);
  });

  test('a student whose name holds the text in two words is found once, and their enrolments once each', async () => {
    const t = tag();
    const course = await make.course({ title: `Joinery ${unique('c')}` });
    const session = await make.session({ course_id: course.id });
    const other = await make.session({ course_id: course.id });
    // The text lies in two of the students' words, `${t}` and `${t}son`, and both are Ada's.
    const ada = await make.student({ name: `Ada ${t} ${t}son` });
    const bob = await make.student({ name: `Bob ${t}son` });
    const enrolments = [
      await make.enrolment({ session_id: session.id, user_id: ada.id, completion_outcome: 'passed' }),
      await make.enrolment({ session_id: other.id, user_id: ada.id }),
      await make.enrolment({ session_id: session.id, user_id: bob.id }),
    ];
    const certificate = await make.certificate({ enrolment_id: (enrolments[0] as { id: number }).id });
    const results = await search(t, '&limit=50');
    assert.deepEqual(
      {
        students: results.students?.items.map((hit) => hit.id),
        enrolments: results.enrolments?.items.map((hit) => hit.id),
        certificates: results.certificates?.items.map((hit) => hit.id),
        totals: [results.students?.total, results.enrolments?.total, results.certificates?.total],
      },
      {
        students: [ada.id, bob.id],
        enrolments: enrolments.map((enrolment) => enrolment.id),
        certificates: [certificate.id],
        totals: [2, 3, 1],
      },
    );
  });

  test('groups that match through users answer alike in the whole search and asked alone', async () => {
    const t = tag();
    const course = await make.course({ title: `Masonry ${t}` });
    const session = await make.session({ course_id: course.id });
    const students = [];
    for (const name of [`Cleo ${t}`, `Dan ${t}`, `Eve ${t}`]) students.push(await make.student({ name }));
    await make.staff({ name: `Fay ${t}` });
    const enrolments = [];
    for (const student of students)
      enrolments.push(await make.enrolment({ session_id: session.id, user_id: student.id, completion_outcome: 'passed' }));
    await make.certificate({ enrolment_id: (enrolments[1] as { id: number }).id });
    const groups = searchGroupsOf(modules).filter((group) => ['students', 'users', 'enrolments', 'certificates'].includes(group.name));
    for (const [q, limit] of [
      [t, 2],
      [`dan ${t}`, 10],
      [`masonry ${t}`, 10],
    ] as const) {
      const results = await search(q, `&limit=${limit}`);
      for (const group of groups) {
        const answer = results[group.name];
        assert.ok(answer, group.name);
        const alone = (await createSearchService(app.platform, [group]).search(operatorContext(app.platform), { q, limit }))[group.name];
        assert.deepEqual(alone, answer, `${group.name} for ${q}, asked alone`);
      }
      if (q === t) {
        assert.deepEqual(
          [results.students?.total, results.users?.total, results.enrolments?.total, results.certificates?.total],
          [3, 1, 3, 1],
          q,
        );
      }
    }
    assert.deepEqual(
      [(await search(`masonry ${t}`)).students?.total, (await search(`masonry ${t}`)).enrolments?.total],
      [0, 3],
      'no user matches: the enrolments still match by course',
    );
  });

  test('a common text is answered from the kept answer while nothing is written, and never stale after a write, whoever makes it', async () => {
    const t = tag();
    const ctx = operatorContext(app.platform);
    // Kept from three matches instead of KEEP_MATCHES, so that a few rows make a common text.
    const service = createSearchService(app.platform, searchGroupsOf(modules), { keepMatches: 3 });
    const course = await make.course({ title: `Kept ${t}` });
    const students = [];
    for (const name of ['One', 'Two', 'Three']) students.push(await make.student({ name: `Kept ${t} ${name}` }, { courseId: course.id }));
    const total = async () => (await service.search(ctx, { q: `kept ${t}` })).students?.total;

    // On PostgreSQL the version is the server's snapshot, which any write to any of its databases
    // moves (other test files write meanwhile): the reads are repeated until none fell between them.
    for (let attempt = 1; ; attempt++) {
      const before = await snapshot();
      assert.equal(await total(), 3);
      const { kept, searched } = service.stats;
      const answer = await service.search(ctx, { q: `kept ${t}` });
      assert.equal(answer.students?.total, 3);
      assert.equal(answer.courses?.items[0]?.id, course.id);
      if (before !== (await snapshot()) && attempt < 50) continue;
      assert.deepEqual(service.stats, { kept: kept + 1, searched }, 'nothing was written: the kept answer');
      break;
    }
    const fewer = createSearchService(app.platform, searchGroupsOf(modules), { keepMatches: 3 });
    await fewer.search(ctx, { q: `kept ${t} one` });
    await fewer.search(ctx, { q: `kept ${t} one` });
    assert.deepEqual(fewer.stats, { kept: 0, searched: 2 }, 'fewer matches than the bound: never kept');

    // Written by this process, then through another connection, as another process would.
    await make.student({ name: `Kept ${t} Four` }, { courseId: course.id });
    assert.equal(await total(), 4);
    await other.db
      .updateTable('users')
      .set({ name: 'Renamed Elsewhere' })
      .where('id', '=', (students[0] as { id: number }).id)
      .execute();
    assert.equal(await total(), 3);
    assert.deepEqual(await Promise.all(Array.from({ length: 4 }, () => total())), [3, 3, 3, 3], 'asked at once after a write');
  });

  test('a write between reading a text’s terms and its statement gives the terms’ version, not the later one', async () => {
    // An answer is kept by the version it returns: had it been the statement's, a student who came to
    // hold a word of the text in between would be missing from an answer kept as that version's.
    const t = tag();
    const course = await make.course();
    for (const name of ['Ada', 'Ben']) await make.student({ name: `${name} ${t}` }, { courseId: course.id });
    const renamed = await make.student({ name: 'Cy Smith' }, { courseId: course.id });
    const { db, dialect } = app.platform.database;
    const termsQueries = new Set<unknown>();
    const wrote: string[] = [];
    const between: KyselyPlugin = {
      transformQuery: (args) => {
        if (JSON.stringify(args.node).includes('student_domains')) termsQueries.add(args.queryId);
        return args.node;
      },
      transformResult: async (args) => {
        if (termsQueries.has(args.queryId)) {
          // Through another connection, as another process would write (this one's is in use).
          await other.db
            .updateTable('users')
            .set({ name: `Cy ${t}son` })
            .where('id', '=', renamed.id)
            .execute();
          wrote.push(`${t}son`);
        }
        return args.result;
      },
    };
    const statement = createSearchStatement(db.withPlugin(between), dialect, searchGroupsOf(modules));
    const { results, version } = await statement.run(t, 5);
    assert.deepEqual(wrote, [`${t}son`], 'the write fell between the terms and the statement');
    assert.equal(results.students?.total, 2, 'the statement searched the terms read before the write');
    const [current] = await executePrepared(db, versionCheck(db, dialect));
    assert.notEqual(version, current?.version, 'the version is the one the terms were read at');
    assert.equal((await statement.run(t, 5)).results.students?.total, 3, 'asked again, the new word is found');
  });

  test('scope: 401 without a token, 403 without search:read', async () => {
    const none = await app.http.inject({ method: 'GET', url: '/api/v1/search?q=x' });
    assert.equal(none.statusCode, 401);
    assert.equal(none.json().code, 'unauthenticated');
    const other = await app.token(['students:read', 'courses:read']);
    const res = await get('/search?q=x', bearer(other));
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().code, 'insufficient_scope');
  });

  test('limit is 1 to 50, and q at most 200 characters; anything else is a 422', async () => {
    for (const query of ['limit=0', 'limit=51', 'limit=-1', 'limit=abc', 'limit=2.5', `q=${'x'.repeat(201)}`]) {
      const res = await get(`/search?${query}`);
      assert.equal(res.statusCode, 422, `${query}: ${res.body}`);
      assert.equal(res.json().code, 'validation_failed');
      assert.ok(res.json().errors[query.split('=')[0] as string], res.body);
    }
    assert.equal((await get('/search?q=x&limit=50')).statusCode, 200);
    assert.equal((await get('/search?q=x&limit=1')).statusCode, 200);
  });
  /**
   * A record of every group carrying `t` in the text its group searches (reports: their type,
   * `session_capacity`), and the people of those records, whose names and emails carry `t` too.
   */
  async function everyGroup(t: string) {
    const course = await make.course({ title: `Course ${t}`, slug: `c-${t}` });
    const session = await make.session({ course_id: course.id, name: `Session ${t}` });
    await make.assessment({ session_id: session.id, title: `Exam ${t}` });
    await make.resource({ session_id: session.id, title: `Slides ${t}` });
    await make.meeting({ session_id: session.id, location: `Room ${t}` });
    const student = await make.student({ name: `Pupil ${t}`, email: `pupil.${t}@people.example` }, { courseId: course.id });
    const staff = await make.staff({ name: `Staffer ${t}`, email: `staffer.${t}@people.example` });
    const enrolment = await make.enrolment({ session_id: session.id, user_id: student.id, completion_outcome: 'passed' });
    await make.certificate({ enrolment_id: enrolment.id, certificate_number: `CERT-${t.toUpperCase()}` });
    await make.workflow({ workflow: 'document_approval', subject_type: `doc_${t}`, subject_id: 1 });
    const now = new Date().toISOString();
    const { db } = app.platform.database;
    await make.notification({ user_id: staff.id, recipient: staff.email, subject: `Your account ${t} has been suspended` });
    await db
      .insertInto('documents')
      .values({
        type: 'profile_document',
        status: 'available',
        title: null,
        filename: `cv-of-pupil-${t}.pdf`,
        media_type: 'application/pdf',
        size: 1,
        sha256: '0'.repeat(64),
        storage_key: `documents/${t}`,
        student_id: student.id,
        supersedes_id: null,
        uploaded_by_token_id: null,
        failure_reason: null,
        available_at: now,
        archived_at: null,
        deleted_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto('reports')
      .values({
        type: 'session_capacity',
        format: 'csv',
        status: 'requested',
        parameters: '{}',
        row_count: null,
        size: null,
        sha256: null,
        storage_key: null,
        failure_reason: null,
        requested_by_token_id: null,
        request_id: null,
        generated_at: null,
        available_at: null,
        expires_at: null,
        expired_at: null,
        failed_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    return { student, staff };
  }

  /** The search's answer with a token of `scopes`, and its body as sent. */
  const searchWith = async (scopes: string[], q: string) => {
    const res = await get(`/search?q=${encodeURIComponent(q)}`, bearer(await app.token(scopes)));
    assert.equal(res.statusCode, 200, res.body);
    return { data: res.json().data as Results, body: res.body };
  };

  test('search:read alone finds nothing: every group present, empty and restricted, and no person in the body', async () => {
    const t = tag();
    const { student, staff } = await everyGroup(t);
    for (const q of [t, 'session_capacity']) {
      const { data, body } = await searchWith(['search:read'], q);
      assert.deepEqual(Object.keys(data).sort(), EVERY_GROUP);
      for (const group of EVERY_GROUP)
        assert.deepEqual(data[group], { total: 0, total_capped: false, items: [], restricted: true }, `${group} by ${q}`);
      for (const secret of [student.email, student.name, staff.email, staff.name, '@', 'Pupil', 'Staffer', t]) {
        assert.ok(!body.includes(secret), `${secret} in ${body}`);
      }

      const everything = await searchWith(['*'], q);
      assert.deepEqual(Object.keys(everything.data).sort(), EVERY_GROUP);
      for (const group of EVERY_GROUP) {
        const found = everything.data[group];
        if (q === t ? group !== 'reports' : group === 'reports') assert.ok((found?.total ?? 0) > 0, `* finds ${group} by ${q}`);
        assert.equal(found?.restricted, false, `* is restricted from nothing: ${group}`);
      }
    }
    const blank = await searchWith(['search:read'], '');
    for (const group of EVERY_GROUP)
      assert.deepEqual(blank.data[group], { total: 0, total_capped: false, items: [], restricted: true }, group);
  });

  test('search:read with courses:read finds courses and what their sessions hold, and no person', async () => {
    const t = tag();
    const { student, staff } = await everyGroup(t);
    const { data, body } = await searchWith(['search:read', 'courses:read'], t);
    assert.deepEqual(Object.keys(data).sort(), EVERY_GROUP);
    for (const group of EVERY_GROUP.filter((name) => !COURSE_GROUPS.includes(name))) {
      assert.deepEqual(data[group], { total: 0, total_capped: false, items: [], restricted: true }, group);
    }
    for (const group of COURSE_GROUPS) assert.deepEqual([data[group]?.total, data[group]?.restricted], [1, false], group);
    assert.equal(data.courses?.items[0]?.path, `/api/v1/courses/c-${t}`);
    for (const secret of [student.email, student.name, staff.email, staff.name, '@', 'Pupil', 'Staffer']) {
      assert.ok(!body.includes(secret), `${secret} in ${body}`);
    }
  });

  test('each group needs the read scope of its records; enrolments and certificates also that of the people (and courses) they show', async () => {
    const t = tag();
    const { student, staff } = await everyGroup(t);
    const single: [string, string][] = [
      ['users', 'users:read'],
      ['notifications', 'identity-notifications:read'],
      ['students', 'students:read'],
      ['workflows', 'workflows:read'],
      ['documents', 'documents:read'],
    ];
    for (const [group, scope] of single) {
      const { data } = await searchWith(['search:read', scope], t);
      for (const name of EVERY_GROUP) {
        assert.equal(data[name]?.restricted, name !== group, `${name} with ${scope}`);
        assert.equal(data[name]?.total, name === group ? 1 : 0, `${name} with ${scope}`);
      }
    }
    assert.equal((await searchWith(['search:read', 'reports:read'], 'session_capacity')).data.reports?.restricted, false);
    assert.equal((await searchWith(['search:read', 'users:read'], t)).data.users?.items[0]?.email, staff.email);
    assert.equal((await searchWith(['search:read', 'students:read'], t)).data.students?.items[0]?.email, student.email);

    // An enrolment shows its student's name and its course's title; a certificate its holder's name.
    const own = await searchWith(['search:read', 'enrolments:read', 'certificates:read'], t);
    assert.deepEqual(own.data.enrolments, { total: 0, total_capped: false, items: [], restricted: true });
    assert.deepEqual(own.data.certificates, { total: 0, total_capped: false, items: [], restricted: true });
    assert.ok(!own.body.includes('Pupil'), own.body);
    const withStudents = await searchWith(['search:read', 'enrolments:read', 'certificates:read', 'students:read'], t);
    assert.equal(withStudents.data.enrolments?.restricted, true, 'an enrolment shows its course too');
    assert.deepEqual([withStudents.data.certificates?.total, withStudents.data.certificates?.items[0]?.holder_name], [1, student.name]);
    const all = await searchWith(['search:read', 'enrolments:read', 'students:read', 'courses:read'], t);
    assert.deepEqual([all.data.enrolments?.total, all.data.enrolments?.restricted], [1, false]);
  });

  /** A service context of a token holding `scopes`. */
  const holding = (...scopes: string[]): ServiceContext => ({
    ...operatorContext(app.platform),
    actor: { kind: 'token', tokenId: null, userId: null, scopes, permissions: null },
  });

  test("a restricted group's query is never built nor run, and search:read alone runs no statement at all", async () => {
    const asked: string[] = [];
    const trap: SearchGroup = {
      name: 'trap',
      scopes: ['users:read'],
      columns: [],
      order: 'id',
      matches: ({ db }) => {
        asked.push('trap');
        return db.selectFrom('users').select('users.id');
      },
      hit: (row: { id: number }) => ({ id: row.id, type: 'user', title: '', path: `/api/v1/users/${row.id}` }),
    };
    const courses = searchGroupsOf(modules).find((group) => group.name === 'courses') as SearchGroup;
    const service = createSearchService(app.platform, [courses, trap]);
    const t = tag();
    await make.course({ title: `Trap ${t}` });
    const answer = await service.search(holding('search:read', 'courses:read'), { q: t });
    assert.deepEqual(answer.trap, { total: 0, total_capped: false, items: [], restricted: true });
    assert.equal(answer.courses?.total, 1);
    assert.deepEqual(asked, [], 'the restricted group was never asked for its query');
    const { searched } = service.stats;
    assert.deepEqual(await service.search(holding('search:read'), { q: t }), {
      courses: { total: 0, total_capped: false, items: [], restricted: true },
      trap: { total: 0, total_capped: false, items: [], restricted: true },
    });
    assert.equal(service.stats.searched, searched, 'nothing to search: no statement');
    assert.equal((await service.search(holding('*'), { q: t })).trap?.restricted, false);
    assert.ok(asked.length > 0, 'asked once it may be read (the statement describes it in several forms)');
  });

  test('a kept answer is given only to tokens that may read the same groups', async () => {
    const t = tag();
    const service = createSearchService(app.platform, searchGroupsOf(modules), { keepMatches: 3 });
    const course = await make.course({ title: `Kept ${t}` });
    for (const name of ['One', 'Two', 'Three']) await make.student({ name: `Kept ${t} ${name}` }, { courseId: course.id });
    const everything = await service.search(holding('*'), { q: `kept ${t}` });
    assert.equal(everything.students?.total, 3);
    const courses = await service.search(holding('search:read', 'courses:read'), { q: `kept ${t}` });
    assert.deepEqual(courses.students, { total: 0, total_capped: false, items: [], restricted: true });
    assert.deepEqual([courses.courses?.total, courses.courses?.restricted], [1, false]);
    assert.deepEqual((await service.search(holding('search:read'), { q: `kept ${t}` })).students, {
      total: 0,
      total_capped: false,
      items: [],
      restricted: true,
    });
    assert.equal((await service.search(holding('*'), { q: `kept ${t}` })).students?.total, 3);
  });
});
