import assert from 'node:assert/strict';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import { createReportGenerator } from '../../src/modules/reports/generator.ts';
import { reportsModule } from '../../src/modules/reports/module.ts';
import { operatorContext } from '../../src/platform/context.ts';
import { fixtures } from '../support/fixtures.ts';
import { createTestAssembly } from '../support/platform.ts';

/** A logger at `level` whose lines are kept, parsed, in `lines`. */
function capturing(level: string) {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: pino({ level, base: undefined }, destination) };
}

test('one generator thread serves report after report, logs through the worker’s logger, and is replaced when it dies', async () => {
  const { platform, services } = await createTestAssembly();
  const make = fixtures(platform);
  const course = await make.course({ title: 'Generator course', slug: 'generator-course' });
  const session = await make.session({ course_id: course.id, name: 'Generator session' });
  for (let i = 0; i < 3; i++) {
    const student = await make.student({ name: `Generator Student ${i}` }, { courseId: course.id });
    await make.enrolment({ user_id: student.id, session_id: session.id });
  }
  const reports = services.reports;
  const ctx = operatorContext(platform);
  const generator = createReportGenerator(platform.config);
  try {
    assert.equal(generator.threadId, null, 'started by the first report, not before');
    const { lines, logger } = capturing('info');
    const first = await reports.request(ctx, { type: 'enrolments', format: 'csv' });
    assert.equal(await generator.generate(first.id, 'req-first', logger.child({ requestId: 'req-first' })), 'available');
    const thread = generator.threadId;
    assert.ok(thread !== null);
    const second = await reports.request(ctx, { type: 'session_capacity', format: 'xlsx' });
    assert.equal(await generator.generate(second.id, 'req-second', logger.child({ requestId: 'req-second' })), 'available');
    assert.equal(generator.threadId, thread, 'the same thread generated the second report');
    assert.equal((await reports.get(ctx, second.id)).status, 'available');

    // Each report's lines reach the logger it was generated for, with that logger's fields and level.
    const available = lines.filter((line) => line.msg === 'report available');
    assert.deepEqual(
      available.map((line) => [line.level, line.requestId, line.reportId, line.rows]),
      [
        [30, 'req-first', first.id, 3],
        [30, 'req-second', second.id, 1],
      ],
    );
    const quiet = capturing('warn');
    const third = await reports.request(ctx, { type: 'enrolments', format: 'csv' });
    assert.equal(await generator.generate(third.id, null, quiet.logger), 'available');
    assert.deepEqual(quiet.lines, [], 'an info line is not written by a logger at warn');

    // The thread dies with a report asked of it: that report fails (its job would be retried), and the
    // next report starts a new thread, which generates the same report again.
    const fourth = await reports.request(ctx, { type: 'enrolments', format: 'csv' });
    const lost = generator.generate(fourth.id, null, logger);
    await generator.close();
    await assert.rejects(lost, /exited/);
    assert.equal(generator.threadId, null);
    assert.equal(await generator.generate(fourth.id, null, logger), 'available');
    assert.notEqual(generator.threadId, thread);
    assert.equal((await reports.get(ctx, fourth.id)).row_count, 3);
  } finally {
    await generator.close();
  }
});

test('the reports.expire task removes partial files older than an hour and leaves younger ones', async () => {
  const { platform, services } = await createTestAssembly();
  const partials = path.join(platform.storage.root, '.partial');
  mkdirSync(partials, { recursive: true });
  const stale = path.join(partials, 'killed-mid-upload.partial');
  const fresh = path.join(partials, 'still-writing.partial');
  writeFileSync(stale, 'left by a worker killed mid-upload');
  writeFileSync(fresh, 'an upload in progress');
  const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
  utimesSync(stale, twoHoursAgo, twoHoursAgo);
  const task = reportsModule.tasks['reports.expire'];
  const result = await task({ platform, services, now: new Date(), signal: new AbortController().signal, logger: platform.logger });
  assert.equal(result.partialFilesRemoved, 1);
  assert.equal(existsSync(stale), false);
  assert.equal(existsSync(fresh), true);
});
