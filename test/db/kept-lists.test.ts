import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Database, openDatabase } from '../../src/db/database.ts';
import { keptTotals } from '../../src/db/totals.ts';
import { keptAnswers } from '../../src/http/representations.ts';
import { operatorContext } from '../../src/platform/context.ts';
import { outsideWrites } from '../support/database.ts';
import { type Fixtures, fixtures } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

// The enrolments and certificates lists keep each page with its total while the database is
// unchanged (ADR 0017), their totals found as before (the sessions' counters, a count): a page is
// given again only while nothing was written, and read again after any write, whoever makes it.
describe('GET /enrolments and GET /certificates: kept pages', () => {
  let app: TestApp;
  let make: Fixtures;
  let token: string;
  let other: Database;

  const list = async (path: string) => {
    const res = await app.http.inject({ method: 'GET', url: `/api/v1/${path}`, headers: bearer(token) });
    assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
    return res.json() as { data: { id: number; status: string; waitlist_position: number | null }[]; meta: { total: number } };
  };

  before(async () => {
    // Over a hundred reads of one token in a minute, which these tests are not about: a fast machine
    // met the default limit of 120 (a 429 in the last test).
    app = await createTestApp({ env: { ACADEMY_RATE_LIMIT_PER_MINUTE: '100000' } });
    make = fixtures(app.platform);
    token = await app.token(['enrolments:read', 'certificates:read']);
    // A second connection (pool), as another process would write.
    other = openDatabase(app.platform.database.url);
  });

  after(async () => {
    await other.close();
  });

  const snapshot = () => outsideWrites(app.platform.database);
  let compiled: (() => number) | undefined;

  /**
   * How many statements the application's database has compiled (Kysely's executor, counted), but
   * for the change feed's own look-ups, which PostgreSQL's listener makes in the background when it
   * comes up (src/platform/changes.ts).
   */
  function compilations(): () => number {
    const executor = app.platform.database.db.getExecutor() as { compileQuery: (...args: never[]) => unknown };
    const compile = executor.compileQuery.bind(executor);
    let count = 0;
    executor.compileQuery = (...args) => {
      if (!/src\/(platform\/changes|db\/listen)\.ts/.test(new Error().stack ?? '')) count++;
      return compile(...args);
    };
    return () => count;
  }

  /** Reads `path` three times with nothing written between: one read, then two kept pages. */
  async function keptWhileUnchanged(path: string) {
    const totals = keptTotals(app.platform.database.db, app.platform.database.dialect);
    compiled ??= compilations();
    for (let attempt = 1; ; attempt++) {
      const before = await snapshot();
      const first = await list(path);
      const { pagesKept, pagesRead } = totals.stats;
      const { made, sentAgain } = keptAnswers;
      const statements = compiled();
      assert.deepEqual(await list(path), first);
      assert.deepEqual(await list(path), first);
      // Before the snapshot's own statement.
      const compiledSince = compiled() - statements;
      if (before !== (await snapshot()) && attempt < 50) continue;
      assert.equal(totals.stats.pagesRead, pagesRead, `${path}: nothing was written, the page is not read again`);
      // Its statements were built once for these filters (builtOnce): naming the kept page compiles nothing.
      assert.equal(compiledSince, 0, `${path}: a kept page costs no statement compiled`);
      assert.equal(totals.stats.pagesKept, pagesKept + 2, `${path}: the page is given again`);
      // And so is its answer: serialized once, sent again as the same bytes (src/http/representations.ts).
      assert.equal(keptAnswers.made, made, `${path}: a kept page's answer is not serialized again`);
      assert.equal(keptAnswers.sentAgain, sentAgain + 2, `${path}: a kept page's answer is sent again`);
      return first;
    }
  }

  test('a waitlist page is kept while nothing is written, and follows a cancellation and a write from elsewhere', async () => {
    const session = await make.session({ max_participants: 1, waitlist_enabled: true });
    // Enrolments are made and cancelled by the administration (the API only reads them).
    const enrolments = app.services.enrolments;
    const ctx = operatorContext(app.platform);
    const enrol = async () => enrolments.enrol(ctx, { student_id: (await make.student()).id, session_id: session.id });
    const seated = await enrol();
    const firstInLine = await enrol();
    const secondInLine = await enrol();
    const path = `enrolments?session_id=${session.id}&status=waitlisted&sort=id&direction=asc`;

    const kept = await keptWhileUnchanged(path);
    assert.equal(kept.meta.total, 2);
    assert.deepEqual(
      kept.data.map((e) => [e.id, e.waitlist_position]),
      [
        [firstInLine.id, 1],
        [secondInLine.id, 2],
      ],
    );

    // By this process: the seat is freed, the first in line promoted, the second moves up.
    await enrolments.cancel(ctx, seated.id, 'kept pages test');
    const promoted = await list(path);
    assert.equal(promoted.meta.total, 1);
    assert.deepEqual(
      promoted.data.map((e) => [e.id, e.waitlist_position]),
      [[secondInLine.id, 1]],
    );

    // Through another connection, as another process would write: the last one leaves the waitlist.
    await keptWhileUnchanged(path);
    await other.db
      .updateTable('enrolments')
      .set({ status: 'cancelled', waitlist_position: null, cancelled_at: new Date().toISOString() })
      .where('id', '=', secondInLine.id)
      .execute();
    const emptied = await list(path);
    assert.equal(emptied.data.length, 0, 'the kept page was read again');
  });

  test("a student's certificates page is kept while nothing is written, and follows a revocation from elsewhere", async () => {
    const student = await make.student();
    const certificate = await make.certificate({ user_id: student.id });
    const path = `certificates?student_id=${student.id}`;
    const kept = await keptWhileUnchanged(path);
    assert.deepEqual(
      kept.data.map((c) => [c.id, c.status]),
      [[certificate.id, 'valid']],
    );
    await other.db
      .updateTable('certificates')
      .set({ status: 'revoked', revoked_at: new Date().toISOString(), revocation_reason: 'kept pages test' })
      .where('id', '=', certificate.id)
      .execute();
    const revoked = await list(path);
    assert.deepEqual(
      revoked.data.map((c) => [c.id, c.status]),
      [[certificate.id, 'revoked']],
    );
  });

  test('requests at once share the version check: one sent, and one more for all that came while it was out', async () => {
    const student = await make.student();
    await make.certificate({ user_id: student.id });
    const path = `certificates?student_id=${student.id}`;
    const { db, dialect } = app.platform.database;
    const totals = keptTotals(db, dialect);
    // Sixteen pages asked for in one turn of the event loop: they reach the check together.
    const query = db.selectFrom('certificates').where('user_id', '=', student.id);
    const read = async () => ({ items: await query.selectAll().execute() });
    let checks = totals.stats.versionChecks;
    const together = await Promise.all(Array.from({ length: 16 }, () => totals.page(query, 'shared-check', read)));
    for (const page of together) assert.deepEqual(page, together[0]);
    assert.ok(
      totals.stats.versionChecks - checks <= 2,
      `16 pages asked for at once made ${totals.stats.versionChecks - checks} version checks`,
    );
    // And sixteen requests at once over HTTP.
    const first = await list(path);
    checks = totals.stats.versionChecks;
    const pages = await Promise.all(Array.from({ length: 16 }, () => list(path)));
    for (const page of pages) assert.deepEqual(page, first);
    assert.ok(totals.stats.versionChecks - checks <= 2, `16 requests at once made ${totals.stats.versionChecks - checks} version checks`);
    // A write from elsewhere while requests keep coming: a request sent after the write sees it, even
    // though a check sent before the write may still be out.
    const [certificate] = first.data;
    // Awaited at once as one promise, so that a failure among them is reported, not left unhandled.
    const during = Promise.all(Array.from({ length: 8 }, () => list(path)));
    await other.db
      .updateTable('certificates')
      .set({ status: 'revoked', revoked_at: new Date().toISOString(), revocation_reason: 'shared check test' })
      .where('id', '=', certificate?.id as number)
      .execute();
    const afterWrite = await Promise.all(Array.from({ length: 8 }, () => list(path)));
    await during;
    for (const page of afterWrite)
      assert.deepEqual(
        page.data.map((c) => c.status),
        ['revoked'],
      );
  });
});
