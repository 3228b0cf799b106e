import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { assemble } from '../../src/assembly/modules.ts';
import { schedulerFor } from '../../src/modules/tasks/scheduler.ts';
import { fixedClock } from '../../src/platform/clock.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { dialect } from '../support/env.ts';
import { eventually } from '../support/eventually.ts';
import { createTestPlatform } from '../support/platform.ts';
import { startNode } from '../support/process.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/academy.js');

const closing: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const close of closing.reverse()) await close();
});

/** A second process's view of the same database: its own pool, queue, worker and scheduler. */
function sibling(platform: Platform): Platform {
  const { platform: other } = assemble(platform.config, { logger: pino({ level: 'silent' }) });
  closing.push(() => other.close());
  return other;
}

async function onlyTask(platform: Platform, taskType: string, changes: { next_run_at: string | null; cron?: string }): Promise<number> {
  const db = platform.database.db;
  await db.updateTable('scheduled_tasks').set({ enabled: false, next_run_at: null }).where('task_type', '!=', taskType).execute();
  const task = await db
    .updateTable('scheduled_tasks')
    .set({ enabled: true, ...changes })
    .where('task_type', '=', taskType)
    .returning('id')
    .executeTakeFirstOrThrow();
  return task.id;
}

const runsOf = (platform: Platform, taskId: number) =>
  platform.database.db.selectFrom('scheduled_task_runs').selectAll().where('task_id', '=', taskId).orderBy('id').execute();

describe('scheduler', () => {
  test('a due task runs exactly once with two worker processes (each with its scheduler) on one database', async () => {
    const a = await createTestPlatform();
    const due = new Date(Date.now() - 5_000).toISOString();
    const taskId = await onlyTask(a, 'jobs.prune_failed', { next_run_at: due });

    const env = { DATABASE_URL: a.config.databaseUrl, ACADEMY_DATA_DIR: a.config.dataDir, ACADEMY_JOB_POLL_MS: '50', LOG_LEVEL: 'warn' };
    const workers = [startNode([bin, 'worker'], env), startNode([bin, 'worker'], env)];
    try {
      await Promise.all(workers.map((w) => w.waitFor(/worker .* started/)));
      const runs = await eventually(
        async () => {
          const rows = await runsOf(a, taskId);
          return rows.length > 0 && rows.every((r) => r.status === 'succeeded') ? rows : null;
        },
        { what: 'the scheduled run to succeed', timeoutMs: 20_000 },
      );
      // Both schedulers keep passing over the task (every second): still one run.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      assert.deepEqual(await runsOf(a, taskId), runs, 'one run row, never a second');
      const [run] = runs;
      assert.equal(run?.trigger, 'schedule');
      assert.equal(run?.scheduled_for, due);
      const task = await a.database.db.selectFrom('scheduled_tasks').selectAll().where('id', '=', taskId).executeTakeFirstOrThrow();
      assert.equal(task.last_outcome, 'succeeded');
      assert.ok(task.next_run_at && Date.parse(task.next_run_at) > Date.now(), 'next_run_at moved to the next cron time');
      const leftover = await a.database.db.selectFrom('jobs').select('id').where('name', '=', 'tasks.run').execute();
      assert.deepEqual(leftover, [], 'the one job ran and was removed; no duplicate is waiting');
      const heartbeat = await a.database.db
        .selectFrom('runtime_state')
        .select('value')
        .where('key', '=', 'scheduler_heartbeat')
        .executeTakeFirst();
      assert.ok(heartbeat && Date.now() - Date.parse(heartbeat.value) < 5000, 'the schedulers record their heartbeat');
    } finally {
      for (const w of workers) w.child.kill('SIGTERM');
      await Promise.all(workers.map((w) => w.exited));
    }
  });

  test('schedulers racing on the same due time queue exactly one run each time', async () => {
    const a = await createTestPlatform();
    const b = dialect === 'postgres' ? sibling(a) : a;
    const taskId = await onlyTask(a, 'idempotency.prune', { next_run_at: null });
    // node:sqlite is synchronous: two connections in one thread would wait on each other's lock, so on
    // SQLite the racing schedulers share one connection (processes race in the test above).
    const schedulers = (dialect === 'postgres' ? [a, b, a, b] : [a, a, a, a]).map((p) => schedulerFor(p));
    // Every round has its own due time (a due time equal to a waiting run's is the next test's case).
    const base = Date.now() - 60_000;
    for (let round = 0; round < 15; round++) {
      const due = new Date(base + round * 1000).toISOString();
      await a.database.db.updateTable('scheduled_tasks').set({ next_run_at: due }).where('id', '=', taskId).execute();
      const results = await Promise.all(schedulers.map((s) => s.tick()));
      assert.equal(
        results.reduce((n, r) => n + r.queued, 0),
        1,
        `round ${round}: one scheduler queued the run`,
      );
    }
    const runs = await runsOf(a, taskId);
    assert.equal(runs.length, 15);
    const jobs = await a.database.db.selectFrom('jobs').select('key').where('name', '=', 'tasks.run').execute();
    assert.equal(jobs.length, 15, 'one job per run');
  });

  test('a run for a due time whose run is still waiting is not queued again, and leaves no run row without a job', async () => {
    const platform = await createTestPlatform();
    const db = platform.database.db;
    const taskId = await onlyTask(platform, 'idempotency.prune', { next_run_at: null });
    const scheduler = schedulerFor(platform);
    const due = new Date(Date.now() - 5_000).toISOString();
    await db.updateTable('scheduled_tasks').set({ next_run_at: due }).where('id', '=', taskId).execute();
    assert.equal((await scheduler.tick()).queued, 1);
    // The same due time again (an operator reset, or two passes within the clock's resolution) while
    // the first run's job has not run yet.
    await db.updateTable('scheduled_tasks').set({ next_run_at: due }).where('id', '=', taskId).execute();
    assert.equal((await scheduler.tick()).queued, 0, 'nothing new was queued');
    const runs = await runsOf(platform, taskId);
    const jobs = await db.selectFrom('jobs').select(['key', 'payload']).where('name', '=', 'tasks.run').execute();
    assert.equal(runs.length, 1, 'one run row');
    assert.deepEqual(
      jobs.map((job) => JSON.parse(job.payload).runId),
      runs.map((run) => run.id),
      'every run row has its job',
    );
  });

  test("next_run_at is computed in the organization's time zone; overdue tasks run once, not once per missed time", async () => {
    const clock = fixedClock('2026-03-10T12:00:00.000Z');
    const platform = await createTestPlatform({ clock });
    const db = platform.database.db;
    await db.updateTable('organization').set({ timezone: 'Asia/Kolkata' }).execute();
    const taskId = await onlyTask(platform, 'jobs.prune_failed', { next_run_at: null, cron: '30 3 * * *' });
    const scheduler = schedulerFor(platform);

    const first = await scheduler.tick();
    assert.equal(first.queued, 0, 'a task without next_run_at is scheduled, not run');
    const task = () => db.selectFrom('scheduled_tasks').selectAll().where('id', '=', taskId).executeTakeFirstOrThrow();
    // 03:30 in India (UTC+05:30) is 22:00 UTC the day before.
    assert.equal((await task()).next_run_at, '2026-03-10T22:00:00.000Z');
    const heartbeat = await db.selectFrom('runtime_state').select('value').where('key', '=', 'scheduler_heartbeat').executeTakeFirst();
    assert.equal(heartbeat?.value, '2026-03-10T12:00:00.000Z', 'each pass records a heartbeat');

    assert.equal((await scheduler.tick()).queued, 0, 'not due yet');
    // The workers were down for three days: one catch-up run, then the next future time.
    clock.set('2026-03-13T23:00:00.000Z');
    assert.equal((await scheduler.tick()).queued, 1);
    assert.equal((await scheduler.tick()).queued, 0);
    const runs = await runsOf(platform, taskId);
    assert.equal(runs.length, 1);
    assert.equal(runs[0]?.scheduled_for, '2026-03-10T22:00:00.000Z');
    assert.equal((await task()).next_run_at, '2026-03-14T22:00:00.000Z');
  });

  test('when the organization moves to another time zone, the next run is computed in the new one and the old time is not run', async () => {
    const clock = fixedClock('2026-03-10T12:00:00.000Z');
    const platform = await createTestPlatform({ clock });
    const db = platform.database.db;
    await db.updateTable('organization').set({ timezone: 'Europe/London' }).execute();
    const taskId = await onlyTask(platform, 'jobs.prune_failed', { next_run_at: null, cron: '0 2 * * *' });
    const task = () => db.selectFrom('scheduled_tasks').selectAll().where('id', '=', taskId).executeTakeFirstOrThrow();
    const scheduler = schedulerFor(platform);
    await scheduler.tick();
    // 02:00 in London in March (before the clocks change) is 02:00 UTC.
    assert.equal((await task()).next_run_at, '2026-03-11T02:00:00.000Z');

    clock.set('2026-03-10T18:00:00.000Z');
    await db.updateTable('organization').set({ timezone: 'America/New_York' }).execute();
    assert.equal((await scheduler.tick()).queued, 0);
    // 02:00 in New York (daylight time from 8 March, UTC-4) is 06:00 UTC.
    const moved = await task();
    assert.equal(moved.next_run_at, '2026-03-11T06:00:00.000Z');
    assert.equal(moved.updated_at, '2026-03-10T18:00:00.000Z', 'the move shows in updated_since');

    // London's 02:00 passes without a run; New York's 02:00 runs once.
    clock.set('2026-03-11T02:30:00.000Z');
    assert.equal((await scheduler.tick()).queued, 0);
    clock.set('2026-03-11T06:00:00.000Z');
    assert.equal((await scheduler.tick()).queued, 1);
    const runs = await runsOf(platform, taskId);
    assert.deepEqual(
      runs.map((run) => run.scheduled_for),
      ['2026-03-11T06:00:00.000Z'],
    );
    assert.equal((await task()).next_run_at, '2026-03-12T06:00:00.000Z');
  });

  test('a time overdue after downtime still runs once when the time zone changed meanwhile; the next is in the new zone', async () => {
    const clock = fixedClock('2026-03-10T12:00:00.000Z');
    const platform = await createTestPlatform({ clock });
    const db = platform.database.db;
    await db.updateTable('organization').set({ timezone: 'Europe/London' }).execute();
    const taskId = await onlyTask(platform, 'jobs.prune_failed', { next_run_at: null, cron: '0 2 * * *' });
    const scheduler = schedulerFor(platform);
    await scheduler.tick();
    // The workers were down from before London's 02:00 until the next day; the zone changed meanwhile.
    await db.updateTable('organization').set({ timezone: 'America/New_York' }).execute();
    clock.set('2026-03-12T12:00:00.000Z');
    assert.equal((await scheduler.tick()).queued, 1);
    const runs = await runsOf(platform, taskId);
    assert.deepEqual(
      runs.map((run) => run.scheduled_for),
      ['2026-03-11T02:00:00.000Z'],
    );
    const task = await db.selectFrom('scheduled_tasks').selectAll().where('id', '=', taskId).executeTakeFirstOrThrow();
    assert.equal(task.next_run_at, '2026-03-13T06:00:00.000Z');
    assert.equal(task.schedule_timezone, 'America/New_York');
  });

  test('disabled tasks are never queued by the scheduler', async () => {
    const platform = await createTestPlatform();
    const db = platform.database.db;
    const taskId = await onlyTask(platform, 'jobs.prune_failed', { next_run_at: new Date(Date.now() - 60_000).toISOString() });
    await db.updateTable('scheduled_tasks').set({ enabled: false }).where('id', '=', taskId).execute();
    const scheduler = schedulerFor(platform);
    assert.equal((await scheduler.tick()).queued, 0);
    assert.deepEqual(await runsOf(platform, taskId), []);
  });

  test('a task with a broken cron expression does not stop the others', async () => {
    const platform = await createTestPlatform();
    const db = platform.database.db;
    const past = new Date(Date.now() - 60_000).toISOString();
    await db.updateTable('scheduled_tasks').set({ enabled: false, next_run_at: null }).execute();
    await db
      .updateTable('scheduled_tasks')
      .set({ enabled: true, next_run_at: past, cron: 'not a cron' })
      .where('task_type', '=', 'idempotency.prune')
      .execute();
    await db
      .updateTable('scheduled_tasks')
      .set({ enabled: true, next_run_at: past })
      .where('task_type', '=', 'jobs.prune_failed')
      .execute();
    const result = await schedulerFor(platform).tick();
    assert.equal(result.queued, 1);
    const queued = await db
      .selectFrom('scheduled_task_runs')
      .innerJoin('scheduled_tasks', 'scheduled_tasks.id', 'scheduled_task_runs.task_id')
      .select('scheduled_tasks.task_type')
      .execute();
    assert.deepEqual(
      queued.map((r) => r.task_type),
      ['jobs.prune_failed'],
    );
  });
});
