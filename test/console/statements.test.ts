import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { before, describe, test } from 'node:test';
import { operatorContext } from '../../src/platform/context.ts';
import { signedInStaff } from '../support/console.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';

/**
 * The console's pages read in a bounded number of SQL statements, the same with two rows to show as
 * with twelve: a page that reads once per row (an N+1) fails here. Statements are counted as Kysely
 * compiles them; the change feed's own look-ups in the background are not a page's, nor the row
 * estimates read once a minute (src/db/estimate.ts) to choose how a page is read.
 */
describe('console pages: statements per page do not grow with the rows shown', () => {
  let app: TestApp;
  let make: Fixtures;
  let admin: Awaited<ReturnType<typeof signedInStaff>>;
  let statements = 0;
  /** Set while a counted GET runs: the worker's tasks and jobs in the same process are not a page's statements. */
  const inPage = new AsyncLocalStorage<true>();

  before(async () => {
    app = await createTestApp();
    make = fixtures(app.platform);
    admin = await signedInStaff(app, ['administrator'], unique('Counter'));
    const executor = app.platform.database.db.getExecutor() as { compileQuery: (...args: never[]) => unknown };
    const compile = executor.compileQuery.bind(executor);
    executor.compileQuery = (...args) => {
      if (inPage.getStore() && !/src\/(platform\/changes|db\/listen|db\/estimate)\.ts/.test(new Error().stack ?? '')) statements++;
      return compile(...args);
    };
  });

  /**
   * The statements of a GET of `url` with what is kept in place: the fewest of five GETs after a
   * first one, which may fill what is kept. Kept pages are named by the database's version, which any
   * write moves (the worker's scheduled tasks in this process write too), so some GETs read again;
   * a page that reads once per row does so in each of them.
   */
  async function counted(url: string): Promise<number> {
    await inPage.run(true, () => admin.browser.request('GET', url));
    let fewest = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < 5; attempt++) {
      const start = statements;
      const res = await inPage.run(true, () => admin.browser.request('GET', url));
      assert.equal(res.statusCode, 200, `${url}: ${res.body.slice(0, 300)}`);
      fewest = Math.min(fewest, statements - start);
    }
    return fewest;
  }

  /** Adds rows with `add` in two steps (2, then 12 in all) and checks that `url` reads alike for both. */
  async function bounded(url: () => string, add: (n: number) => Promise<void>, limit = 16): Promise<void> {
    await add(2);
    const few = await counted(url());
    await add(10);
    const many = await counted(url());
    assert.equal(many, few, `${url()}: ${few} statements with 2 rows, ${many} with 12`);
    assert.ok(few <= limit, `${url()}: ${few} statements`);
  }

  test('the lists: courses, students, certificates, staff, approvals, audit', async () => {
    const tag = unique('n1').toLowerCase();
    await bounded(
      () => `/console/courses?q=${tag}`,
      async (n) => {
        for (let i = 0; i < n; i++) await make.course({ title: `${tag} course ${unique('c')}` });
      },
    );
    const course = await make.course({ title: `${tag} host` });
    const session = await make.session({ course_id: course.id });
    await bounded(
      () => `/console/students?q=${tag}`,
      async (n) => {
        for (let i = 0; i < n; i++) await make.student({ name: `${tag} student ${unique('s')}` }, { courseId: course.id });
      },
    );
    await bounded(
      () => '/console/certificates?per_page=50',
      async (n) => {
        for (let i = 0; i < n; i++) {
          const student = await make.student({}, { courseId: course.id });
          const enrolment = await make.enrolment({ user_id: student.id, session_id: session.id, completion_outcome: 'passed' });
          await make.certificate({ enrolment_id: enrolment.id, user_id: student.id });
        }
      },
    );
    await bounded(
      () => '/console/staff?per_page=50',
      async (n) => {
        for (let i = 0; i < n; i++) await make.staff({ name: `${tag} staff ${unique('t')}` });
      },
    );
    await bounded(
      () => '/console/approvals?per_page=50',
      async (n) => {
        for (let i = 0; i < n; i++) await make.workflow();
      },
    );
    await bounded(
      () => '/console/audit?per_page=50',
      async (n) => {
        // Each a change through the service, so that the trail has a row for it (of its actor).
        for (let i = 0; i < n; i++) {
          const slug = unique('audited').toLowerCase();
          await app.services.courses.create(operatorContext(app.platform), {
            slug,
            title: `${tag} audited`,
            code: slug.toUpperCase(),
            price: '10.00',
            currency: 'EUR',
            language: 'en',
          });
        }
      },
    );
  });

  test('the records: a session with its enrolments, a student with theirs', async () => {
    const course = await make.course();
    const session = await make.session({ course_id: course.id, max_participants: 100 });
    const student = await make.student({}, { courseId: course.id });
    await bounded(
      () => `/console/courses/${course.slug}/sessions/${session.id}`,
      async (n) => {
        for (let i = 0; i < n; i++) {
          const someone = await make.student({}, { courseId: course.id });
          await make.enrolment({ user_id: someone.id, session_id: session.id });
        }
      },
      24,
    );
    await bounded(
      () => `/console/students/${student.id}`,
      async (n) => {
        for (let i = 0; i < n; i++) {
          const other = await make.session({ course_id: course.id });
          await make.enrolment({ user_id: student.id, session_id: other.id });
        }
      },
      24,
    );
  });
});
