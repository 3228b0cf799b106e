import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../src/db/database.ts';
import { HOLDER_TERMS } from '../../src/db/holder-terms.ts';
import type { DB } from '../../src/db/schema.ts';
import { remakeTerms } from '../../src/db/student-terms.ts';
import { type Fixtures, fixtures } from '../support/fixtures.ts';
import { bearer, createTestApp, createTestPlatform, type TestApp } from '../support/platform.ts';

// The certificates and enrolments by their holder's terms (migrations 0039 and 0042,
// src/db/holder-terms.ts): kept by triggers in the writing transaction, made again by the seed's
// remake, and read by GET /search.

type Held = keyof typeof HOLDER_TERMS;

/** `table`'s terms table for the rows `ids`, and what it should hold: each row's holder's terms. */
async function heldAndDefined(db: Kysely<DB>, table: Held, ids: number[]) {
  if (ids.length === 0) return { held: [], defined: [] };
  const list = sql.join(ids);
  const terms = sql.table(HOLDER_TERMS[table].terms);
  const rows = async (query: ReturnType<typeof sql<{ term: string; id: number }>>) =>
    (await query.execute(db)).rows.map((r) => `${r.term} #${Number(r.id)}`).sort();
  return {
    held: await rows(sql`select term, id from ${terms} where id in (${list})`),
    defined: await rows(
      sql`select t.term, h.id from ${sql.table(table)} h join student_terms t on t.id = h.user_id where h.id in (${list})`,
    ),
  };
}

describe('certificates and enrolments by their holder’s terms', () => {
  let app: TestApp;
  let make: Fixtures;
  let token: string;
  // Letters alone, new to the database (other test files share it on PostgreSQL).
  const t = `h${Math.random().toString(36).slice(2, 8).replace(/[0-9]/g, 'x')}`;
  const ids: Record<Held, number[]> = { certificates: [], enrolments: [] };
  const holders: Record<string, number> = {};

  const yes = (dialect: Dialect) => (dialect === 'sqlite' ? 1 : true) as never;
  const no = (dialect: Dialect) => (dialect === 'sqlite' ? 0 : false) as never;

  /** A new enrolment of `userId`. */
  const enrol = async (userId: number) => {
    const enrolment = await make.enrolment({ user_id: userId, completion_outcome: 'passed' });
    ids.enrolments.push(enrolment.id);
    return enrolment.id;
  };

  /** A certificate of a new enrolment of `userId` (its number given or made). */
  const certify = async (userId: number, number?: string) => {
    const certificate = await make.certificate({ enrolment_id: await enrol(userId), ...(number ? { certificate_number: number } : {}) });
    ids.certificates.push(certificate.id);
    return certificate.id;
  };

  const search = async (q: string, limit: number) => {
    const res = await app.http.inject({
      method: 'GET',
      url: `/api/v1/search?q=${encodeURIComponent(q)}&limit=${limit}`,
      headers: bearer(token),
    });
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data as Record<Held, { total: number; items: { id: number }[] }>;
    const group = (table: Held) => ({ total: data[table].total, ids: data[table].items.map((hit) => hit.id) });
    return { certificates: group('certificates'), enrolments: group('enrolments') };
  };

  /**
   * The rows whose holder's name or email contain `q`, by id: certificates also by their number,
   * enrolments also by their course's title, code or slug.
   */
  const defined = async (q: string) => {
    const like = `%${q.toLowerCase()}%`;
    const { db } = app.platform.database;
    const certificates = await sql<{ id: number }>`select c.id from certificates c join users u on u.id = c.user_id
      where lower(c.certificate_number) like ${like} or lower(u.name) like ${like} or lower(u.email) like ${like}
      order by c.id`.execute(db);
    const enrolments = await sql<{ id: number }>`select e.id from enrolments e join users u on u.id = e.user_id
      join training_sessions s on s.id = e.session_id join courses c on c.id = s.course_id
      where lower(u.name) like ${like} or lower(u.email) like ${like}
        or lower(c.title) like ${like} or lower(c.code) like ${like} or lower(c.slug) like ${like}
      order by e.id`.execute(db);
    return { certificates: certificates.rows.map((r) => Number(r.id)), enrolments: enrolments.rows.map((r) => Number(r.id)) };
  };

  /** The terms tables hold each row once per term of its holder. */
  const kept = async (label: string) => {
    for (const table of ['certificates', 'enrolments'] as const) {
      const { held, defined } = await heldAndDefined(app.platform.database.db, table, ids[table]);
      assert.deepEqual(held, defined, `${label}: ${HOLDER_TERMS[table].terms} holds each row once per term of its holder`);
    }
  };

  /** Every text's certificates and enrolments groups are their definitions, at every limit; and the tables are the holders' terms. */
  const agrees = async (texts: string[], label: string) => {
    await kept(label);
    for (const q of texts) {
      const all = await defined(q);
      for (const limit of [1, 2, 3, 50]) {
        const page = (table: Held) => ({ total: all[table].length, ids: all[table].slice(0, limit) });
        assert.deepEqual(
          await search(q, limit),
          { certificates: page('certificates'), enrolments: page('enrolments') },
          `${label}: ${q}, limit ${limit}`,
        );
      }
    }
    await kept(label);
  };

  before(async () => {
    app = await createTestApp({ env: { ACADEMY_RATE_LIMIT_PER_MINUTE: '1000000' } });
    make = fixtures(app.platform);
    token = await app.token(['*']);
    for (const [key, name, email] of [
      ['ana', `Ana ${t}lee`, `ana.${t}lee@learners.test`],
      ['bo', `Bo ${t}lee`, `bo.1@learners.test`],
      ['cy', `Cy ${t}leeson`, `cy.2@learners.test`],
      ['di', `Di Other`, `di.${t}lee@learners.test`],
      ['ed', `Ed ${t}lee`, `ed.3@learners.test`],
      ['fi', `Fi Nobody`, `fi.4@learners.test`],
    ] as const) {
      holders[key] = (await make.student({ name, email })).id;
    }
    for (const key of ['ana', 'bo', 'cy', 'di', 'ed', 'ana', 'cy']) await certify(holders[key] as number);
    // Enrolments without a certificate, of holders who hold the text and of one who does not.
    for (const key of ['bo', 'fi', 'ana', 'fi']) await enrol(holders[key] as number);
    // A certificate whose number holds the text, of a holder who does not, and one of a holder who does too.
    await certify(holders.fi as number, `CERT-${t.toUpperCase()}LEE-1`);
    await certify(holders.bo as number, `CERT-${t.toUpperCase()}LEE-2`);
  });

  const texts = [`${t}lee`, `${t}le`, `${t}leeson`, `ana ${t}lee`, `bo ${t}l`, `${t}lee-1`, `${t}lee-`, `${t}zz`];

  test('GET /search counts and pages them as its definition does', async () => {
    await agrees(texts, 'as made');
  });

  test('they follow renames, staff rights, moved, new and removed rows and students in the writing transaction', async () => {
    const { db, dialect } = app.platform.database;
    /** Writes `change` to the holder `key`'s user. */
    const update = (key: string, change: { name?: string; email?: string; is_admin?: never }) =>
      db
        .updateTable('users')
        .set(change)
        .where('id', '=', holders[key] as number)
        .execute();
    // Bo is renamed; Ed joins the staff (their rows still match, by their name); Di is renamed too.
    await update('bo', { name: 'Bo Renamed' });
    await update('ed', { is_admin: yes(dialect) });
    await update('di', { email: `di.${t}leeson@learners.test` });
    await agrees(texts, 'after renames and staff rights');
    // A new certificate of a student who holds the text; one removed with its enrolment; Cy removed
    // with theirs; an enrolment of Fi's moved to Ana, one of Ana's to Fi.
    await certify(holders.ana as number);
    const first = ids.certificates[0] as number;
    const { enrolment_id } = await db.selectFrom('certificates').select('enrolment_id').where('id', '=', first).executeTakeFirstOrThrow();
    await db.deleteFrom('enrolments').where('id', '=', enrolment_id).execute();
    await db
      .deleteFrom('users')
      .where('id', '=', holders.cy as number)
      .execute();
    const move = async (from: string, to: string) => {
      const row = await db
        .selectFrom('enrolments')
        .select('id')
        .where('user_id', '=', holders[from] as number)
        .where('id', 'in', ids.enrolments)
        .orderBy('id')
        .executeTakeFirstOrThrow();
      await db
        .updateTable('enrolments')
        .set({ user_id: holders[to] as number })
        .where('id', '=', row.id)
        .execute();
    };
    await move('fi', 'ana');
    await move('ana', 'fi');
    // Ed leaves the staff: a student again, found through the terms.
    await update('ed', { is_admin: no(dialect) });
    await agrees(texts, 'after moved, new and removed rows and students');
    // Nothing is left of the removed ones.
    for (const table of ['certificates', 'enrolments'] as const) {
      const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(HOLDER_TERMS[table].terms)}
        where id not in (select id from ${sql.table(table)}) and id in (${sql.join(ids[table])})`.execute(db);
      assert.equal(Number(rows[0]?.n), 0, table);
    }
  });
});

describe('the seed’s remake of the students’ terms', () => {
  test('makes the certificates’ and enrolments’ holder terms again, and leaves their triggers in place', async () => {
    const platform = await createTestPlatform();
    try {
      const make = fixtures(platform);
      const { db, dialect } = platform.database;
      const ids: Record<Held, number[]> = { certificates: [], enrolments: [] };
      const certify = async (userId: number) => {
        const enrolment = await make.enrolment({ user_id: userId, completion_outcome: 'passed' });
        ids.enrolments.push(enrolment.id);
        ids.certificates.push((await make.certificate({ enrolment_id: enrolment.id })).id);
      };
      for (const name of ['Ava Stone', 'Ben Stone', 'Cal Rivers']) await certify((await make.student({ name })).id);
      const both = async () => ({
        certificates: await heldAndDefined(db, 'certificates', ids.certificates),
        enrolments: await heldAndDefined(db, 'enrolments', ids.enrolments),
      });
      const before = await both();
      for (const table of ['certificates', 'enrolments'] as const) {
        assert.ok(before[table].held.length >= 6, `${table}: ${before[table].held.length} rows`);
      }
      // As a load leaves it: terms and the rows held by them gone, then the remake.
      await sql`delete from certificate_terms`.execute(db);
      await sql`delete from enrolment_terms`.execute(db);
      await remakeTerms(db, dialect);
      assert.deepEqual(await both(), before);
      // The triggers are back: a new enrolment and certificate, and a rename, are kept.
      const student = await make.student({ name: 'Dee Stone' });
      await certify(student.id);
      await db.updateTable('users').set({ name: 'Ava Brook' }).where('id', '=', student.id).execute();
      const after = await both();
      for (const table of ['certificates', 'enrolments'] as const) {
        assert.deepEqual(after[table].held, after[table].defined, table);
        assert.ok(after[table].held.includes(`brook #${ids[table][3]}`), after[table].held.join(', '));
      }
    } finally {
      await platform.close();
    }
  });
});
