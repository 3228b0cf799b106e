import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { openDatabase } from '../../src/db/database.ts';
import { createReportService } from '../../src/modules/reports/service.ts';
import { systemContext } from '../../src/platform/context.ts';
import { assertError } from '../support/errors.ts';
import { eventually } from '../support/eventually.ts';
import { fixtures } from '../support/fixtures.ts';
import { abandonOnLastAttempt } from '../support/jobs.ts';
import { commitOnce } from '../support/once.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

describe('reports', () => {
  let app: TestApp;
  let token: string;

  before(async () => {
    app = await createTestApp();
    token = await app.token(['reports:read', 'reports:write', 'search:read']);
    const make = fixtures(app.platform);
    const course = await make.course({ title: 'Report course', slug: 'report-course' });
    const session = await make.session({ course_id: course.id, name: 'Report session' });
    for (let i = 0; i < 12; i++) {
      const student = await make.student({ name: `Report Student ${i}` }, { courseId: course.id });
      await make.enrolment({ user_id: student.id, session_id: session.id });
    }
  });

  const request = (body: unknown) =>
    app.http.inject({
      method: 'POST',
      url: '/api/v1/reports',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: body as object,
    });
  const get = (url: string) => app.http.inject({ method: 'GET', url: `/api/v1${url}`, headers: bearer(token) });

  /** Runs a worker until the report leaves the generating states; returns the statuses seen while polling. */
  async function generate(id: number): Promise<string[]> {
    const seen: string[] = [];
    const worker = app.platform.createWorker({ pollMs: 10 });
    await worker.start();
    try {
      await eventually(
        async () => {
          // Read from the database: polling over HTTP this often would spend the token's rate limit.
          const { status } = await app.platform.database.db
            .selectFrom('reports')
            .select('status')
            .where('id', '=', id)
            .executeTakeFirstOrThrow();
          if (seen.at(-1) !== status) seen.push(status);
          return ['available', 'failed'].includes(status);
        },
        { what: 'the report to finish', intervalMs: 2 },
      );
    } finally {
      await worker.stop();
    }
    return seen;
  }

  test('POST answers 202 with the report requested and its Location; download is a 409 until it is available', async () => {
    const res = await request({ type: 'enrolments', format: 'csv' });
    assert.equal(res.statusCode, 202, res.body);
    const { data } = res.json();
    assert.equal(res.headers.location, `/api/v1/reports/${data.id}`);
    assert.equal(data.status, 'requested');
    assert.equal(data.download_path, null);
    const early = await get(`/reports/${data.id}/download`);
    assert.equal(early.statusCode, 409);
    assert.equal(early.json().code, 'report_not_available');
    const seen = await generate(data.id);
    assert.equal(seen.at(-1), 'available', `seen: ${seen.join(' → ')}`);
    const done = (await get(`/reports/${data.id}`)).json().data;
    assert.equal(done.progress, 100);
    assert.equal(done.row_count, 12);
    assert.equal(done.download_path, `/api/v1/reports/${data.id}/download`);
    assert.ok(done.expires_at > done.available_at);
  });

  test('the CSV lists exactly the enrolments of the database', async () => {
    const { data } = (await request({ type: 'enrolments', parameters: { status: 'confirmed' } })).json();
    await generate(data.id);
    const res = await get(`/reports/${data.id}/download`);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    assert.match(
      String(res.headers['content-disposition']),
      new RegExp(`^attachment; filename="?enrolments-\\d{4}-\\d{2}-\\d{2}-${data.id}\\.csv"?$`),
    );
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    const rows: Record<string, string>[] = parse(res.body, { columns: true });
    const expected = await app.platform.database.db
      .selectFrom('enrolments')
      .innerJoin('users', 'users.id', 'enrolments.user_id')
      .select(['enrolments.id', 'users.email', 'enrolments.status'])
      .where('enrolments.status', '=', 'confirmed')
      .orderBy('enrolments.id')
      .execute();
    assert.ok(expected.length > 0);
    assert.deepEqual(
      rows.map((r) => [Number(r.enrolment_id), r.student_email, r.status]),
      expected.map((e) => [e.id, e.email, e.status]),
    );
  });

  test('a download whose ETag the client holds is a 304 without the file; another ETag gets the file', async () => {
    const { data } = (await request({ type: 'enrolments' })).json();
    await generate(data.id);
    const first = await get(`/reports/${data.id}/download`);
    assert.equal(first.statusCode, 200);
    const etag = String(first.headers.etag);
    assert.match(etag, /^"[0-9a-f]{32}"$/);
    const again = (condition: string) =>
      app.http.inject({
        method: 'GET',
        url: `/api/v1/reports/${data.id}/download`,
        headers: { ...bearer(token), 'if-none-match': condition },
      });
    for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await again(condition);
      assert.equal(res.statusCode, 304, condition);
      assert.equal(res.body, '');
      assert.equal(res.headers.etag, etag);
    }
    const changed = await again('"0123456789abcdef0123456789abcdef"');
    assert.equal(changed.statusCode, 200);
    assert.equal(changed.body, first.body);
  });

  test('the XLSX opens in a spreadsheet reader with a header and every row', async () => {
    const { data } = (await request({ type: 'session_capacity', format: 'xlsx' })).json();
    assert.equal((await generate(data.id)).at(-1), 'available');
    const res = await get(`/reports/${data.id}/download`);
    assert.equal(res.headers['content-type'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as never);
    const sheet = workbook.worksheets[0];
    assert.ok(sheet);
    const sessions = await app.platform.database.db.selectFrom('training_sessions').select('id').orderBy('id').execute();
    assert.equal(sheet.getRow(1).getCell(1).value, 'session_id');
    assert.equal(sheet.actualRowCount, sessions.length + 1);
    assert.equal(Number(sheet.getRow(2).getCell(1).value), sessions[0]?.id);
  });

  test('a generation that throws ends failed with its reason, and leaves no file', async () => {
    // The reports area of the storage is a file, not a directory: writing the report fails.
    const area = path.join(app.platform.storage.root, 'reports');
    mkdirSync(app.platform.storage.root, { recursive: true });
    rmSync(area, { recursive: true, force: true });
    writeFileSync(area, 'not a directory');
    try {
      const { data } = (await request({ type: 'completions' })).json();
      assert.equal((await generate(data.id)).at(-1), 'failed');
      const failed = (await get(`/reports/${data.id}`)).json().data;
      assert.match(failed.failure_reason, /^Generation failed: /);
      assert.ok(failed.failed_at);
      assert.equal((await get(`/reports/${data.id}/download`)).json().code, 'report_not_available');
    } finally {
      rmSync(area, { force: true });
    }
  });

  test('an expired report cannot be downloaded and its file is gone', async () => {
    const { data } = (await request({ type: 'certificates_issued' })).json();
    await generate(data.id);
    const row = await app.platform.database.db
      .selectFrom('reports')
      .select('storage_key')
      .where('id', '=', data.id)
      .executeTakeFirstOrThrow();
    assert.ok(row.storage_key && (await app.platform.storage.exists(row.storage_key)));
    const later = new Date(Date.now() + 31 * 86_400_000);
    const result = await app.services.reports.expire({
      ...systemContext(app.platform),
      clock: { now: () => later, epochMs: () => later.getTime() },
    });
    assert.ok(result.expired >= 1);
    const expired = (await get(`/reports/${data.id}`)).json().data;
    assert.equal(expired.status, 'expired');
    const download = await get(`/reports/${data.id}/download`);
    assert.equal(download.statusCode, 409);
    assert.equal(download.json().code, 'report_not_available');
    assert.equal(await app.platform.storage.exists(row.storage_key as string), false);
  });

  test('a report whose own job is gone ends failed as stalled; one whose job still waits is left alone', async () => {
    const lost = (await request({ type: 'completions' })).json().data;
    const waiting = (await request({ type: 'completions' })).json().data;
    const { db } = app.platform.database;
    const jobs = await db
      .selectFrom('jobs')
      .select(['id', 'payload'])
      .where('name', '=', 'reports.generate')
      .where('failed_at', 'is', null)
      .execute();
    const reportOf = (payload: unknown) => (typeof payload === 'string' ? JSON.parse(payload) : payload) as { reportId: number };
    const job = jobs.find((j) => reportOf(j.payload).reportId === lost.id);
    assert.ok(job && jobs.some((j) => reportOf(j.payload).reportId === waiting.id));
    // As a crash on the job's last attempt leaves it: failed for good, its report still `requested`.
    await db.updateTable('jobs').set({ failed_at: new Date().toISOString() }).where('id', '=', job.id).execute();
    const later = new Date(Date.now() + 2 * 3_600_000);
    const result = await app.services.reports.expire({
      ...systemContext(app.platform),
      clock: { now: () => later, epochMs: () => later.getTime() },
    });
    assert.ok(result.stalled >= 1);
    const failed = (await get(`/reports/${lost.id}`)).json().data;
    assert.equal(failed.status, 'failed');
    assert.match(failed.failure_reason, /not being retried/);
    assert.equal((await get(`/reports/${waiting.id}`)).json().data.status, 'requested');
  });

  test('a report left generated (a crash before its file was stored) is generated again by its retried job', async () => {
    const { data } = (await request({ type: 'enrolments' })).json();
    const { db } = app.platform.database;
    // As a crash between the `generated` commit and the one that stores the file leaves it.
    await db.updateTable('reports').set({ status: 'generated', progress: 100 }).where('id', '=', data.id).execute();
    const service = app.services.reports;
    assert.equal(await service.generate(systemContext(app.platform), data.id), 'available');
    const download = await get(`/reports/${data.id}/download`);
    assert.equal(download.statusCode, 200);
    const enrolments = await db
      .selectFrom('enrolments')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(parse(download.body, { columns: true }).length, Number(enrolments.n));
  });

  test('a report left generated whose job is gone ends failed as stalled', async () => {
    const { data } = (await request({ type: 'completions' })).json();
    const { db } = app.platform.database;
    await db.updateTable('reports').set({ status: 'generated' }).where('id', '=', data.id).execute();
    await db.updateTable('jobs').set({ failed_at: new Date().toISOString() }).where('name', '=', 'reports.generate').execute();
    const later = new Date(Date.now() + 2 * 3_600_000);
    await app.services.reports.expire({
      ...systemContext(app.platform),
      clock: { now: () => later, epochMs: () => later.getTime() },
    });
    const failed = (await get(`/reports/${data.id}`)).json().data;
    assert.equal(failed.status, 'failed');
    assert.match(failed.failure_reason, /not being retried/);
  });

  test('a report whose job gives up (a worker died during its last attempt) ends failed with report.failed', async () => {
    const { data } = (await request({ type: 'completions' })).json();
    const { db } = app.platform.database;
    await abandonOnLastAttempt(db, 'reports.generate', (job) => job.reportId === data.id);
    await db.updateTable('reports').set({ status: 'generating' }).where('id', '=', data.id).execute();
    const worker = app.platform.createWorker({ pollMs: 10 });
    await worker.start();
    try {
      await eventually(async () => (await get(`/reports/${data.id}`)).json().data.status === 'failed', { what: 'the report to fail' });
    } finally {
      await worker.stop();
    }
    assert.match((await get(`/reports/${data.id}`)).json().data.failure_reason, /^Generation did not finish: /);
    const events = await db.selectFrom('events').select('payload').where('type', '=', 'report.failed').execute();
    assert.ok(events.some((e) => (typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload).report_id === data.id));
  });

  test('filters, validation and scopes', async () => {
    assertError(await request({ type: 'nonsense' }), 422, 'validation_failed');
    const extra = await request({ type: 'session_capacity', parameters: { from: '2026-01-01' } });
    assert.equal(extra.statusCode, 422);
    assert.equal(extra.json().code, 'validation_failed');
    assert.ok(extra.json().errors['parameters.from']);
    assertError(await request({ type: 'enrolments', parameters: { from: '2026-02-01', to: '2026-01-01' } }), 422, 'validation_failed');
    const list = (await get('/reports?type=enrolments&per_page=100')).json();
    assert.ok(list.data.length >= 2 && list.data.every((r: { type: string }) => r.type === 'enrolments'));
    assertError(await get('/reports?status=lost'), 422, 'validation_failed');
    const reader = await app.token(['reports:read']);
    const refused = await app.http.inject({
      method: 'POST',
      url: '/api/v1/reports',
      headers: { ...bearer(reader), 'content-type': 'application/json' },
      payload: { type: 'enrolments' },
    });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().code, 'insufficient_scope');
    assertError(await get('/reports/99999'), 404, 'not_found');
    const found = (await get('/search?q=enrolments')).json().data.reports;
    assert.ok(found.total >= 2);
  });

  test('a report is read in one snapshot: what is committed between its pages is not in it', async () => {
    const { platform } = app;
    const before = await platform.database.db
      .selectFrom('enrolments')
      .innerJoin('users', 'users.id', 'enrolments.user_id')
      .select(['enrolments.id', 'enrolments.status', 'users.name'])
      .orderBy('enrolments.id')
      .execute();
    const first = before[0];
    const last = before.at(-1);
    assert.ok(first && last && last.id - first.id >= 4, 'the report spans several pages of two ids');
    // The writer is another connection, as another process would be.
    const writer = openDatabase(platform.database.url);
    try {
      // Right after the first page is read, one transaction cancels the first enrolment and the last.
      const change = commitOnce(() => {
        const now = new Date().toISOString();
        return writer.db
          .updateTable('enrolments')
          .set({ status: 'cancelled', cancelled_at: now, updated_at: now })
          .where('id', 'in', [first.id, last.id])
          .execute();
      });
      // Right after the snapshot is taken, before anything is read in it, every student is renamed:
      // a connection that took a snapshot of its own at its first read (one reading ahead on
      // PostgreSQL that did not import the first one's) would show the new names.
      const rename = commitOnce(() => writer.db.updateTable('users').set({ name: 'Renamed meanwhile' }).execute());
      const holdSnapshot: typeof platform.database.holdSnapshot = async (connections) => {
        const snapshot = await platform.database.holdSnapshot(connections);
        await rename.make();
        return {
          ...snapshot,
          async arrays(query) {
            const result = await snapshot.arrays(query);
            // A page selects the report's columns; its count and last id select one value.
            if (result.columns.length > 1) await change.make();
            return result;
          },
        };
      };
      const reports = createReportService({
        db: platform.database.db,
        holdSnapshot,
        storage: platform.storage,
        outbox: platform.outbox,
        queue: platform.queue,
        jobs: platform.jobs,
        batch: 2,
      });
      const { data } = (await request({ type: 'enrolments' })).json();
      assert.equal(await reports.generate(systemContext(platform), data.id), 'available');
      assert.ok(rename.made && change.made, 'both changes were committed while the report was read');
      const rows: Record<string, string>[] = parse((await get(`/reports/${data.id}/download`)).body, { columns: true });
      // Read page by page without a snapshot, the first enrolment showed its old status and the last
      // its new one: a state the database never held.
      assert.deepEqual(
        rows.map((r) => [Number(r.enrolment_id), r.status, r.student_name]),
        before.map((e) => [e.id, e.status, e.name]),
      );
      const after = await platform.database.db.selectFrom('enrolments').select('status').where('id', 'in', [first.id, last.id]).execute();
      assert.deepEqual(
        after.map((e) => e.status),
        ['cancelled', 'cancelled'],
      );
    } finally {
      await writer.close();
    }
  });
});
