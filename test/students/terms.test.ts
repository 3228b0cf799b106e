import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { addForEveryStudent, addPairs, remakeTerms, termOf } from '../../src/db/student-terms.ts';
import { type Fixtures, fixtures } from '../support/fixtures.ts';
import { bearer, createTestApp, createTestPlatform, type TestApp } from '../support/platform.ts';

// A search text that one word of the students' names and emails contains is read from that word's
// students (`student_terms`, ADR 0026); any other text is searched as before. Both ways must give
// exactly the students whose name or email contains the text, case folded beyond ASCII, in every
// order, status and direction, and keep doing so after the writes that change a student's words.
describe('GET /students?search: the words of names and emails', () => {
  let app: TestApp;
  let make: Fixtures;
  let token: string;
  // Letters alone, new to the database: every text searched here holds it, so that other tests'
  // students never match (they share the database on PostgreSQL).
  const tag = `q${Math.random().toString(36).slice(2, 8).replace(/[0-9]/g, 'x')}`;
  const TAG = tag.toUpperCase();
  const ids: number[] = [];
  const crowd: number[] = [];

  before(async () => {
    app = await createTestApp({ env: { ACADEMY_RATE_LIMIT_PER_MINUTE: '1000000' } });
    make = fixtures(app.platform);
    token = await app.token(['students:read']);
    const course = await make.course();
    const people: [string, string][] = [
      [`Nadia ${tag}okafor`, `nadia.${tag}okafor.1@${tag}dom.test`],
      [`${TAG}OKAFOR Quinn`, `quinn.2@learners.test`],
      [`Ana ${tag}okafor-smith`, `ana.${tag}okafor.3@learners.test`],
      [`ZOË ${TAG}MÜLLER`, `zoe.${tag}muller.4@learners.test`],
      [`Élodie ${tag}müller`, `elodie.${tag}muller.5@learners.test`],
      [`Rhys "${tag}rocky" O'Brien`, `rhys.obrien.6@learners.test`],
      [`Back\\slash ${tag}ana`, `back.7@learners.test`],
      [`Agent 007`, `${tag}agent.007@learners.test`],
      [`Adam ${tag}adams`, `adam.${tag}adams.9@learners.test`],
      [`Nadia ${tag}okafor`, `nadia.10@learners.test`],
    ];
    for (const [i, [name, email]] of people.entries()) {
      const student = await make.student({ name, email, email_verified: i % 3 === 0 }, { courseId: course.id });
      ids.push(student.id);
    }
    // One word that several students hold: pages past the middle are read from the far end.
    for (let i = 0; i < 7; i++) {
      const student = await make.student(
        {
          name: `Member${String.fromCharCode(97 + ((i * 3) % 7))} ${tag}crowd`,
          email: `m${i}.${tag}crowd@learners.test`,
          email_verified: i % 2 === 0,
        },
        { courseId: course.id },
      );
      crowd.push(student.id);
    }
    // Staff, and a user who never applied, hold the words too and are never students.
    await make.user({ name: `Staff ${tag}okafor`, email: `staff.${tag}okafor@${tag}staff.test`, is_admin: true });
    await make.user({ name: `Applicant ${tag}okafor`, email: `nobody.${tag}okafor@learners.test` });
  });

  /** The students whose name or email contains `text`, by the definition, in the order asked. */
  const expected = async (text: string, status: string | undefined, sort: string, direction: 'asc' | 'desc') => {
    const needle = text.toLowerCase();
    const rows = await app.platform.database.db
      .selectFrom('users')
      .select(['users.id', 'users.name', 'users.email', 'users.email_verified'])
      .where(sql<boolean>`not users.is_admin`)
      .where(sql<boolean>`exists (select 1 from course_applications a where a.user_id = users.id)`)
      .orderBy(sql.ref(`users.${sort}`), direction)
      .orderBy('users.id', direction)
      .execute();
    return rows
      .filter((r) => r.name.toLowerCase().includes(needle) || r.email.toLowerCase().includes(needle))
      .filter((r) => status === undefined || Boolean(r.email_verified) === (status === 'verified'))
      .map((r) => Number(r.id));
  };

  const apiPage = async (query: string) => {
    const res = await app.http.inject({ method: 'GET', url: `/api/v1/students?${query}`, headers: bearer(token) });
    assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
    const body = res.json() as { data: { id: number }[]; meta: { total: number } };
    return { ids: body.data.map((r) => r.id), total: body.meta.total };
  };

  /** Every page of size 2 of `text` in every order, status and direction is the matches' slice. */
  const everyPage = async (text: string, matches: number) => {
    assert.equal((await expected(text, undefined, 'id', 'asc')).length, matches, `${text}: students that contain it`);
    for (const status of [undefined, 'verified', 'unverified']) {
      for (const sort of ['id', 'name', 'email', 'created_at', 'updated_at']) {
        for (const direction of ['asc', 'desc'] as const) {
          const all = await expected(text, status, sort, direction);
          for (let page = 1; page <= Math.ceil(all.length / 2) + 1; page++) {
            const query = `search=${encodeURIComponent(text)}&sort=${sort}&direction=${direction}&per_page=2&page=${page}${status ? `&status=${status}` : ''}`;
            const got = await apiPage(query);
            assert.equal(got.total, all.length, `${query}: total`);
            assert.deepEqual(got.ids, all.slice((page - 1) * 2, page * 2), `${query}: the page`);
          }
        }
      }
    }
  };

  /** How the repository reads `text`: through one word, none, or as before (null). */
  const way = (text: string) => termOf(app.platform.database.db, app.platform.database.dialect, text.toLowerCase());

  test('a text within one word is read from that word’s students; others as before; both exact', async () => {
    // One word holds these (names and emails alike; letter case folded beyond ASCII).
    assert.deepEqual(await way(`${tag}okafor-`), { words: [`${tag}okafor-smith`] });
    assert.deepEqual(await way(`${TAG}MÜLL`), { words: [`${tag}müller`] });
    assert.deepEqual(await way(`"${tag}rock`), { words: [`"${tag}rocky"`] });
    assert.deepEqual(await way(`${tag}adams`), { words: [`${tag}adams`] });
    assert.equal(await way(`${tag}zzz`), 'none');
    // A few words: their students, each once.
    assert.deepEqual(await way(`${tag}okafor`), { words: [`${tag}okafor`, `${tag}okafor-smith`] });
    assert.deepEqual(await way(`${tag}a`), { words: [`${tag}adams`, `${tag}agent`, `${tag}ana`] });
    // Across two words (one space): the pairs of neighbouring words that contain it.
    assert.deepEqual(await way(`nadia ${tag}okafor`), { words: [`nadia ${tag}okafor`] });
    assert.deepEqual(await way(`a ${tag}okafor`), { words: [`ana ${tag}okafor-smith`, `nadia ${tag}okafor`] });
    assert.deepEqual(await way(`${TAG}OKAFOR q`), { words: [`${tag}okafor quinn`] });
    assert.deepEqual(await way(`${tag}rocky" o'b`), { words: [`"${tag}rocky" o'brien`] });
    assert.deepEqual(await way(`h ${tag}an`), { words: [`back\\slash ${tag}ana`] });
    assert.equal(await way(`${tag}zzz q`), 'none');
    // Across more words, digits alone, a domain: as before.
    assert.equal(await way(`rhys "${tag}rocky" o'brien`), null);
    assert.equal(await way('007'), null);
    assert.equal(await way(`${tag}do`), null, 'in a domain');

    await everyPage(`${tag}okafor-`, 1);
    await everyPage(`${TAG}MÜLL`, 2);
    await everyPage(`${tag}müller`, 2);
    await everyPage(`${tag}muller`, 2);
    await everyPage(`"${tag}rocky"`, 1);
    await everyPage(`${tag}adams`, 1);
    await everyPage(`${tag}agent`, 1);
    await everyPage(`${tag}zzz`, 0);
    await everyPage(`${tag}okafor`, 4);
    await everyPage(`${tag}a`, 3);
    await everyPage(`nadia ${tag}okafor`, 2);
    await everyPage(`a ${tag}okafor`, 3);
    await everyPage(`${TAG}OKAFOR q`, 1);
    await everyPage(`${tag}rocky" o'b`, 1);
    await everyPage(`h ${tag}an`, 1);
    await everyPage(`ZOË ${TAG}MÜ`, 1);
    await everyPage(`${tag}zzz q`, 0);
    await everyPage(`rhys "${tag}rocky" o'brien`, 1);
    await everyPage(`${tag}dom`, 1);
    assert.deepEqual(await way(`${tag}crow`), { words: [`${tag}crowd`] });
    await everyPage(`${tag}crowd`, 7);
  });

  test('the words follow renames, new emails, verification and staff rights in the writing transaction', async () => {
    const { db, dialect } = app.platform.database;
    const yes = dialect === 'sqlite' ? 1 : true;
    const no = dialect === 'sqlite' ? 0 : false;
    const at = (n: number) => ids[n] as number;
    // Quinn takes a new surname; Élodie a new email; Nadia (the second) is verified; Adam becomes staff.
    await db
      .updateTable('users')
      .set({ name: `Quinn ${tag}okoro`, updated_at: new Date().toISOString() })
      .where('id', '=', at(1))
      .execute();
    await db
      .updateTable('users')
      .set({ email: `elodie.${tag}okoro.5@learners.test` })
      .where('id', '=', at(4))
      .execute();
    await db
      .updateTable('users')
      .set({ email_verified: yes as never })
      .where('id', '=', at(9))
      .execute();
    await db
      .updateTable('users')
      .set({ is_admin: yes as never })
      .where('id', '=', at(8))
      .execute();
    assert.deepEqual(await way(`${tag}okor`), { words: [`${tag}okoro`] });
    assert.deepEqual(await way(`n ${tag}okor`), { words: [`quinn ${tag}okoro`] });
    await everyPage(`quinn ${tag}okoro`, 1);
    // A pair no student holds any more stays one: its students are none.
    assert.deepEqual(await way(`${tag}okafor quinn`), { words: [`${tag}okafor quinn`] });
    await everyPage(`${tag}okafor quinn`, 0);
    await everyPage(`${tag}okoro`, 2);
    await everyPage(`${tag}okafor`, 3);
    await everyPage(`${tag}müller`, 2);
    await everyPage(`${tag}muller`, 1);
    // A word no student holds any more stays one (the vocabulary only grows): its students are none.
    assert.deepEqual(await way(`${tag}adams`), { words: [`${tag}adams`] });
    await everyPage(`${tag}adams`, 0);
    // Staff rights taken away: a student again.
    await db
      .updateTable('users')
      .set({ is_admin: no as never })
      .where('id', '=', at(8))
      .execute();
    await everyPage(`${tag}adams`, 1);
    // A page past the middle read after a write that changed the total: the last total is not this
    // version's, so the page is not read from the far end by it (PostgreSQL) or by the new one.
    await everyPage(`${tag}crowd`, 7);
    await db
      .updateTable('users')
      .set({ is_admin: yes as never })
      .where('id', '=', crowd[0] as number)
      .execute();
    await everyPage(`${tag}crowd`, 6);
    // The terms are those a remake from the users gives.
    const held = await sql<{
      term: string;
      id: number;
    }>`select term, id from student_terms where term like ${`%${tag}%`} order by term, id`.execute(db);
    const words = (
      await db
        .selectFrom('users')
        .select(['id', 'name', 'email', 'is_admin', 'is_student'])
        .where('id', 'in', [...ids, ...crowd])
        .execute()
    ).flatMap((u) =>
      u.is_student && !u.is_admin
        ? [
            ...new Set([
              ...`${u.name} ${u.email.slice(0, u.email.indexOf('@'))}`.toLowerCase().split(/[ .@]/),
              // Pairs of neighbouring words, of the name and of the email's local part apart.
              ...[u.name, u.email.slice(0, u.email.indexOf('@'))].flatMap((text) =>
                text
                  .toLowerCase()
                  .split(' ')
                  .flatMap((part, i, parts) => (part && parts[i + 1] ? [`${part} ${parts[i + 1]}`] : [])),
              ),
            ]),
          ]
            .filter((w) => w.includes(tag))
            .map((term) => ({ term, id: Number(u.id) }))
        : [],
    );
    const sorted = (list: { term: string; id: number }[]) =>
      list.map((r) => `${r.term} ${Number(r.id)}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    assert.deepEqual(sorted(held.rows), sorted(words));
  });
});

describe('migration 0034: the pairs of the students there are', () => {
  test('a student’s terms are found by student, as the migrations and the seed’s remake leave them', async () => {
    // The triggers remove a student's terms by id on every update of the student: without an index
    // of them by student, each update read every term (ADR 0026, migration 0038).
    const platform = await createTestPlatform();
    try {
      const { db, dialect } = platform.database;
      const byStudent = async () => {
        const held =
          dialect === 'sqlite'
            ? await sql<{ name: string }>`select name from sqlite_master where type = 'index' and name = 'student_terms_id'`.execute(db)
            : await sql<{ name: string }>`select indexname as name from pg_indexes where indexname = 'student_terms_id'`.execute(db);
        if (held.rows.length === 0) return 'no index';
        if (dialect === 'postgres') return 'held';
        const plan = await sql<{ detail: string }>`explain query plan delete from student_terms where id = ${1}`.execute(db);
        return plan.rows.map((row) => row.detail).join('; ');
      };
      const expected = dialect === 'sqlite' ? 'SEARCH student_terms USING INDEX student_terms_id (id=?)' : 'held';
      assert.equal(await byStudent(), expected);
      await remakeTerms(db, dialect);
      assert.equal(await byStudent(), expected);
    } finally {
      await platform.close();
    }
  });

  test('are made as the triggers make them, whatever the database held', async () => {
    const platform = await createTestPlatform();
    try {
      const make = fixtures(platform);
      const course = await make.course();
      const people = [
        ['Ana María López', 'ana.maria.1@learners.test'],
        ['ZOË  Müller', 'zoe.2@learners.test'],
        ['J. R. R. Tolkien', 'jrr.3@learners.test'],
        ['Agent 007 Bond', 'agent.4@learners.test'],
        ['Single', 'single.5@learners.test'],
      ];
      for (const [name, email] of people) await make.student({ name: name as string, email: email as string }, { courseId: course.id });
      await make.user({ name: 'Staff Person', email: 'staff.6@staff.test', is_admin: true });
      const { db, dialect } = platform.database;
      const pairsHeld = async () =>
        (
          await sql<{ term: string; id: number }>`select term, id from student_terms where term like ${'% %'} order by term, id`.execute(db)
        ).rows.map((r) => `${r.term} #${Number(r.id)}`);
      const made = await pairsHeld();
      // As before the upgrade: no pairs at all. Then the upgrade's step.
      await sql`delete from student_terms where term like ${'% %'}`.execute(db);
      await sql`delete from student_pairs`.execute(db);
      await addForEveryStudent(db, dialect, addPairs);
      assert.deepEqual(await pairsHeld(), made);
      assert.deepEqual(
        made.map((r) => r.replace(/ #\d+$/, '')),
        ['007 bond', 'agent 007', 'ana maría', 'j. r.', 'maría lópez', 'r. r.', 'r. tolkien'],
      );
      const vocabulary = await db.selectFrom('student_pairs').select(['first', 'second']).orderBy('second').orderBy('first').execute();
      assert.equal(vocabulary.length, 7);
    } finally {
      await platform.close();
    }
  });
});
