import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../src/db/database.ts';
import type { DB } from '../../src/db/schema.ts';
import { remakeTerms } from '../../src/db/student-terms.ts';
import { type Fixtures, fixtures } from '../support/fixtures.ts';
import { bearer, createTestApp, createTestPlatform, type TestApp } from '../support/platform.ts';

// The certificates by their holder's terms (migration 0039, src/db/holder-terms.ts): kept by
// triggers in the writing transaction, made again by the seed's remake, and read by GET /search.

/** `certificate_terms` for `certificates`, and what it should hold: each one's holder's terms. */
async function heldAndDefined(db: Kysely<DB>, certificates: number[]) {
  if (certificates.length === 0) return { held: [], defined: [] };
  const list = sql.join(certificates);
  const rows = async (query: ReturnType<typeof sql<{ term: string; id: number }>>) =>
    (await query.execute(db)).rows.map((r) => `${r.term} #${Number(r.id)}`).sort();
  return {
    held: await rows(sql`select term, id from certificate_terms where id in (${list})`),
    defined: await rows(sql`select t.term, c.id from certificates c join student_terms t on t.id = c.user_id where c.id in (${list})`),
  };
}

describe('certificates by their holder’s terms', () => {
  let app: TestApp;
  let make: Fixtures;
  let token: string;
  // Letters alone, new to the database (other test files share it on PostgreSQL).
  const t = `h${Math.random().toString(36).slice(2, 8).replace(/[0-9]/g, 'x')}`;
  const certificates: number[] = [];
  const holders: Record<string, number> = {};

  const yes = (dialect: Dialect) => (dialect === 'sqlite' ? 1 : true) as never;
  const no = (dialect: Dialect) => (dialect === 'sqlite' ? 0 : false) as never;

  /** A certificate of a new enrolment of `userId` (its number given or made). */
  const certify = async (userId: number, number?: string) => {
    const enrolment = await make.enrolment({ user_id: userId, completion_outcome: 'passed' });
    const certificate = await make.certificate({ enrolment_id: enrolment.id, ...(number ? { certificate_number: number } : {}) });
    certificates.push(certificate.id);
    return certificate.id;
  };

  const search = async (q: string, limit: number) => {
    const res = await app.http.inject({
      method: 'GET',
      url: `/api/v1/search?q=${encodeURIComponent(q)}&limit=${limit}`,
      headers: bearer(token),
    });
    assert.equal(res.statusCode, 200, res.body);
    const group = res.json().data.certificates as { total: number; items: { id: number }[] };
    return { total: group.total, ids: group.items.map((hit) => hit.id) };
  };

  /** The certificates whose number, or holder's name or email, contain `q`, by id. */
  const defined = async (q: string) => {
    const like = `%${q.toLowerCase()}%`;
    const { rows } = await sql<{ id: number }>`select c.id from certificates c join users u on u.id = c.user_id
      where lower(c.certificate_number) like ${like} or lower(u.name) like ${like} or lower(u.email) like ${like}
      order by c.id`.execute(app.platform.database.db);
    return rows.map((r) => Number(r.id));
  };

  /** Every text's certificates group is its definition, at every limit; and the table is its holders' terms. */
  const agrees = async (texts: string[], label: string) => {
    const early = await heldAndDefined(app.platform.database.db, certificates);
    assert.deepEqual(early.held, early.defined, `${label}: the table holds each certificate once per term of its holder`);
    for (const q of texts) {
      const all = await defined(q);
      for (const limit of [1, 2, 3, 50]) {
        assert.deepEqual(await search(q, limit), { total: all.length, ids: all.slice(0, limit) }, `${label}: ${q}, limit ${limit}`);
      }
    }
    const { held, defined: expected } = await heldAndDefined(app.platform.database.db, certificates);
    assert.deepEqual(held, expected, `${label}: the table holds each certificate once per term of its holder`);
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
    // A certificate whose number holds the text, of a holder who does not, and one of a holder who does too.
    await certify(holders.fi as number, `CERT-${t.toUpperCase()}LEE-1`);
    await certify(holders.bo as number, `CERT-${t.toUpperCase()}LEE-2`);
  });

  const texts = [`${t}lee`, `${t}le`, `${t}leeson`, `ana ${t}lee`, `bo ${t}l`, `${t}lee-1`, `${t}lee-`, `${t}zz`];

  test('GET /search counts and pages them as its definition does', async () => {
    await agrees(texts, 'as made');
  });

  test('they follow renames, staff rights, new and removed certificates and students in the writing transaction', async () => {
    const { db, dialect } = app.platform.database;
    /** Writes `change` to the holder `key`'s user. */
    const update = (key: string, change: { name?: string; email?: string; is_admin?: never }) =>
      db
        .updateTable('users')
        .set(change)
        .where('id', '=', holders[key] as number)
        .execute();
    // Bo is renamed; Ed joins the staff (their certificates still match, by their name); Di is renamed too.
    await update('bo', { name: 'Bo Renamed' });
    await update('ed', { is_admin: yes(dialect) });
    await update('di', { email: `di.${t}leeson@learners.test` });
    await agrees(texts, 'after renames and staff rights');
    // A new certificate of a student who holds the text; one removed with its enrolment; Cy removed with theirs.
    await certify(holders.ana as number);
    const first = certificates[0] as number;
    const { enrolment_id } = await db.selectFrom('certificates').select('enrolment_id').where('id', '=', first).executeTakeFirstOrThrow();
    await db.deleteFrom('enrolments').where('id', '=', enrolment_id).execute();
    await db
      .deleteFrom('users')
      .where('id', '=', holders.cy as number)
      .execute();
    // Ed leaves the staff: a student again, found through the terms.
    await update('ed', { is_admin: no(dialect) });
    await agrees(texts, 'after new and removed certificates and students');
    // Nothing is left of the removed ones.
    const { rows } = await sql<{ n: number }>`select count(*) as n from certificate_terms
      where id not in (select id from certificates) and id in (${sql.join(certificates)})`.execute(db);
    assert.equal(Number(rows[0]?.n), 0);
  });
});

describe('the seed’s remake of the students’ terms', () => {
  test('makes the certificates’ holder terms again, and leaves their triggers in place', async () => {
    const platform = await createTestPlatform();
    try {
      const make = fixtures(platform);
      const { db, dialect } = platform.database;
      const ids: number[] = [];
      for (const name of ['Ava Stone', 'Ben Stone', 'Cal Rivers']) {
        const student = await make.student({ name });
        const enrolment = await make.enrolment({ user_id: student.id, completion_outcome: 'passed' });
        ids.push((await make.certificate({ enrolment_id: enrolment.id })).id);
      }
      const before = await heldAndDefined(db, ids);
      assert.ok(before.held.length >= 6, `${before.held.length} rows`);
      // As a load leaves it: terms and their certificates' rows gone, then the remake.
      await sql`delete from certificate_terms`.execute(db);
      await remakeTerms(db, dialect);
      assert.deepEqual(await heldAndDefined(db, ids), before);
      // The triggers are back: a new certificate, and a rename, are kept.
      const student = await make.student({ name: 'Dee Stone' });
      const enrolment = await make.enrolment({ user_id: student.id, completion_outcome: 'passed' });
      ids.push((await make.certificate({ enrolment_id: enrolment.id })).id);
      await db.updateTable('users').set({ name: 'Ava Brook' }).where('id', '=', student.id).execute();
      const after = await heldAndDefined(db, ids);
      assert.deepEqual(after.held, after.defined);
      assert.ok(after.held.includes(`brook #${ids[3]}`), after.held.join(', '));
    } finally {
      await platform.close();
    }
  });
});
