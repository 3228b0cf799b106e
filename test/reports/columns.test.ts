import assert from 'node:assert/strict';
import { buffer } from 'node:stream/consumers';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { createReportService } from '../../src/modules/reports/service.ts';
import { REPORTS, type ReportFormat, type ReportType } from '../../src/modules/reports/types.ts';
import { operatorContext, systemContext } from '../../src/platform/context.ts';
import { fixtures } from '../support/fixtures.ts';
import { createTestAssembly } from '../support/platform.ts';

/** A cell as the CSV writes it: empty for null, numbers in decimal, text as it is. */
const cell = (value: unknown) => (value === null || value === undefined ? '' : String(value));

test('every report shows its rows’ values as the database holds them, timestamps in ISO 8601, page after page', async () => {
  const { platform, services } = await createTestAssembly();
  const { db } = platform.database;
  const make = fixtures(platform);
  const course = await make.course({ title: 'Columns course', slug: 'columns-course' });
  const other = await make.course({ title: 'Other course', slug: 'other-course' });
  const sessions = [
    await make.session({ course_id: course.id, name: 'Columns session, "morning"' }),
    await make.session({ course_id: other.id, name: 'Other session' }),
  ];
  await make.session({ course_id: other.id, name: 'Empty session' });
  const enrolments = [];
  for (let i = 0; i < 7; i++) {
    const student = await make.student({ name: i === 3 ? 'Ünal, "Ada"' : `Columns Student ${i}` }, { courseId: course.id });
    enrolments.push(
      await make.enrolment({
        user_id: student.id,
        session_id: (sessions[i % 2] as { id: number }).id,
        // Microseconds, which PostgreSQL keeps and a report shows to the millisecond, as the driver does.
        ...(i === 2 ? { status: 'cancelled', cancelled_at: '2026-03-04T05:06:07.891934Z' } : {}),
        ...(i === 1 || i === 4 || i === 5 ? { completion_outcome: 'passed', completion_recorded_at: `2026-05-0${i}T10:00:00.123Z` } : {}),
      }),
    );
  }
  await make.certificate({ enrolment_id: (enrolments[4] as { id: number }).id });
  await make.certificate({ enrolment_id: (enrolments[0] as { id: number }).id });
  await make.certificate({
    enrolment_id: (enrolments[5] as { id: number }).id,
    status: 'revoked',
    revoked_at: '2026-06-01T08:30:00.000Z',
  });
  for (const session of sessions) {
    await make.meeting({ session_id: session.id, starts_at: '2027-01-11T09:00:00.000Z', ends_at: '2027-01-11T12:30:00.000Z' });
    await make.meeting({ session_id: session.id, held_on: '2027-01-12' });
  }

  // The same rows read plainly, by the driver, in the shape of each report's columns.
  const enrolmentRows = () =>
    db
      .selectFrom('enrolments')
      .innerJoin('users', 'users.id', 'enrolments.user_id')
      .innerJoin('training_sessions', 'training_sessions.id', 'enrolments.session_id')
      .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
      .orderBy('enrolments.id');
  const expected: Record<ReportType, () => Promise<unknown[][]>> = {
    enrolments: async () =>
      (
        await enrolmentRows()
          .select([
            'enrolments.id',
            'enrolments.user_id',
            'users.name',
            'users.email',
            'courses.slug',
            'enrolments.session_id',
            'training_sessions.name as session_name',
            'enrolments.status',
            'enrolments.waitlist_position',
            'enrolments.created_at',
            'enrolments.cancelled_at',
            'enrolments.completion_outcome',
          ])
          .execute()
      ).map((r) => Object.values(r)),
    completions: async () =>
      (
        await enrolmentRows()
          .where('enrolments.completion_outcome', 'is not', null)
          .select([
            'enrolments.id',
            'enrolments.user_id',
            'users.name',
            'courses.slug',
            'enrolments.session_id',
            'enrolments.completion_outcome',
            'enrolments.completion_recorded_at',
          ])
          .execute()
      ).map((r) => Object.values(r)),
    certificates_issued: async () =>
      (
        await db
          .selectFrom('certificates')
          .innerJoin('users', 'users.id', 'certificates.user_id')
          .innerJoin('courses', 'courses.id', 'certificates.course_id')
          .select([
            'certificates.id',
            'certificates.certificate_number',
            'certificates.user_id',
            'users.name',
            'courses.slug',
            'certificates.status',
            'certificates.issued_at',
            'certificates.revoked_at',
          ])
          .orderBy('certificates.id')
          .execute()
      ).map((r) => Object.values(r)),
    attendance: async () =>
      (
        await db
          .selectFrom('meetings')
          .innerJoin('training_sessions', 'training_sessions.id', 'meetings.session_id')
          .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
          .select([
            'meetings.id',
            'courses.slug',
            'meetings.session_id',
            'meetings.held_on',
            'meetings.starts_at',
            'meetings.ends_at',
            'meetings.location',
            'meetings.status',
            'training_sessions.confirmed_count',
          ])
          .orderBy('meetings.id')
          .execute()
      ).map((r) => Object.values(r)),
    session_capacity: async () =>
      (
        await db
          .selectFrom('training_sessions')
          .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
          .select([
            'training_sessions.id',
            'courses.slug',
            'training_sessions.name',
            'training_sessions.workflow_state',
            'training_sessions.starts_on',
            'training_sessions.max_participants',
            'training_sessions.confirmed_count',
            'training_sessions.waitlisted_count',
          ])
          .orderBy('training_sessions.id')
          .execute()
      ).map((r) => {
        const values = Object.values(r);
        const [seats, confirmed] = [Number(r.max_participants), Number(r.confirmed_count)];
        return [...values, Math.max(0, seats - confirmed)];
      }),
  };

  // Pages of two ids: every report spans several, and one page's rows can all be filtered out.
  const reports = createReportService({
    db,
    holdSnapshot: platform.database.holdSnapshot,
    storage: platform.storage,
    outbox: platform.outbox,
    queue: platform.queue,
    jobs: platform.jobs,
    batch: 2,
  });
  const ctx = operatorContext(platform);
  async function generated(type: ReportType, format: ReportFormat): Promise<Buffer> {
    const report = await services.reports.request(ctx, { type, format });
    assert.equal(await reports.generate(systemContext(platform), report.id), 'available');
    return buffer((await services.reports.open(ctx, report.id)).stream);
  }

  const csvs = new Map<ReportType, string[][]>();
  for (const type of Object.keys(REPORTS) as ReportType[]) {
    const header = REPORTS[type].columns.map((column) => column.header);
    const rows = (await expected[type]()).map((row) => row.map(cell));
    assert.ok(rows.length >= 3, `${type}: the rows span pages`);
    const csv: string[][] = parse((await generated(type, 'csv')).toString('utf8'));
    assert.deepEqual(csv, [header, ...rows], `${type} as CSV`);
    csvs.set(type, csv);
  }
  // PostgreSQL keeps microseconds and formats the timestamp itself: to the millisecond, as the driver
  // would; SQLite holds the text as it was written.
  const cancelled = csvs.get('enrolments')?.find((row) => row[7] === 'cancelled');
  assert.equal(cancelled?.[10], platform.database.dialect === 'postgres' ? '2026-03-04T05:06:07.891Z' : '2026-03-04T05:06:07.891934Z');

  // The spreadsheet of the enrolments: the same header and rows, numbers as numbers.
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await generated('enrolments', 'xlsx')) as never);
  const sheet = workbook.worksheets[0];
  assert.ok(sheet);
  const values: unknown[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    values.push(REPORTS.enrolments.columns.map((_, i) => row.getCell(i + 1).value));
  });
  const enrolled = await expected.enrolments();
  assert.deepEqual(
    values.map((row) => row.map(cell)),
    [REPORTS.enrolments.columns.map((c) => c.header), ...enrolled.map((row) => row.map(cell))],
  );
  assert.equal(typeof values[1]?.[0], 'number');
});
