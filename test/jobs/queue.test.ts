import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import pino from 'pino';
import { assemble } from '../../src/assembly/modules.ts';
import { loadConfig } from '../../src/config.ts';
import type { JobName } from '../../src/platform/jobs/names.ts';
import {
  createJobRegistry,
  defaultBackoff,
  type JobDefinition,
  type JobRegistry,
  PermanentJobError,
  RetryAfterError,
} from '../../src/platform/jobs/registry.ts';
import type { WorkerOptions } from '../../src/platform/jobs/worker.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { dialect, secretKeyEnv } from '../support/env.ts';
import { eventually } from '../support/eventually.ts';
import { createTestPlatform } from '../support/platform.ts';

type Handlers = { [N in JobName]?: JobDefinition<N> };

/** Every job the assembled modules handle. */
const JOB_NAMES = (await createTestPlatform()).registry.names();

/** A registry covering every job name: the given handlers, and ones that do nothing for the rest. */
function registryWith(handlers: Handlers, omit: JobName[] = []): JobRegistry {
  const registry = createJobRegistry();
  for (const name of JOB_NAMES) {
    if (!omit.includes(name)) registry.register(name, (handlers[name] as JobDefinition<any>) ?? { async handler() {} });
  }
  return registry;
}

function startWorker(t: TestContext, platform: Platform, registry: JobRegistry, options: Partial<WorkerOptions> = {}) {
  const worker = platform.createWorker({ concurrency: 4, leaseMs: 30_000, pollMs: 200, ...options }, registry);
  t.after(() => worker.stop(1000));
  return worker;
}

async function enqueueNoop(platform: Platform, payload: { sleepMs?: number; marker?: string } = {}, options = {}) {
  return platform.database.db.transaction().execute((trx) => platform.queue.enqueue(trx, 'system.noop', payload, options));
}

const job = (platform: Platform, id: number) => platform.jobs.findById(id);

async function failedEvents(platform: Platform) {
  return (await platform.events.listByType('job.failed')).map((event) => JSON.parse(event.payload));
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('job queue', () => {
  test('a job enqueued in a transaction that rolls back does not exist; a committed one runs', async (t) => {
    const platform = await createTestPlatform();
    await assert.rejects(
      platform.database.db.transaction().execute(async (trx) => {
        await platform.queue.enqueue(trx, 'system.noop', { marker: 'rolled-back' });
        throw new Error('the change failed');
      }),
      /the change failed/,
    );
    assert.equal((await platform.database.db.selectFrom('jobs').selectAll().execute()).length, 0, 'no job row after a rollback');

    const ran: string[] = [];
    const registry = registryWith({ 'system.noop': { handler: async (payload) => void ran.push(payload.marker ?? '') } });
    await startWorker(t, platform, registry).start();
    const id = await enqueueNoop(platform, { marker: 'committed' });
    assert.ok(id);
    await eventually(async () => !(await job(platform, id)), { what: 'the committed job to complete', timeoutMs: 5000 });
    assert.deepEqual(ran, ['committed'], 'only the committed job ran, once');
  });

  test('a job key de-duplicates while the job waits or runs, and is free again once it completed', async (t) => {
    const platform = await createTestPlatform();
    const release = deferred();
    const started: string[] = [];
    const registry = registryWith({
      'system.noop': {
        async handler(payload) {
          started.push(payload.marker ?? '');
          if (payload.marker === 'first') await release.promise;
        },
      },
    });
    const first = await enqueueNoop(platform, { marker: 'first' }, { key: 'recount:1' });
    assert.ok(first);
    assert.equal(await enqueueNoop(platform, { marker: 'waiting duplicate' }, { key: 'recount:1' }), undefined);
    assert.equal(
      (await enqueueNoop(platform, { marker: 'other key' }, { key: 'recount:2' })) !== undefined,
      true,
      'another key is its own job',
    );

    await startWorker(t, platform, registry).start();
    await eventually(async () => started.includes('first'), { what: 'the keyed job to start', timeoutMs: 5000 });
    assert.equal(await enqueueNoop(platform, { marker: 'running duplicate' }, { key: 'recount:1' }), undefined);
    release.resolve();
    await eventually(async () => !(await job(platform, first)), { what: 'the keyed job to complete', timeoutMs: 5000 });

    const again = await enqueueNoop(platform, { marker: 'after completion' }, { key: 'recount:1' });
    assert.ok(again && again !== first, 'the key can be used again after completion');
    await eventually(async () => started.includes('after completion'), { what: 'the new keyed job to run', timeoutMs: 5000 });
    assert.deepEqual(started.sort(), ['after completion', 'first', 'other key']);
  });

  test('a failing handler is retried with backoff, then fails for good with a job.failed event', async (t) => {
    const platform = await createTestPlatform();
    const starts: number[] = [];
    const registry = registryWith({
      'system.noop': {
        async handler(_payload, ctx) {
          starts.push(Date.now());
          throw new Error(`boom on attempt ${ctx.attempt}`);
        },
        backoff: (attempt) => 400 * attempt,
      },
    });
    const id = await enqueueNoop(platform, {}, { maxAttempts: 3 });
    assert.ok(id);
    const enqueued = (await job(platform, id))!;
    await startWorker(t, platform, registry).start();

    const afterFirst = await eventually(async () => {
      const row = await job(platform, id);
      return row && row.attempts === 1 && row.locked_by === null && row.last_error ? row : null;
    });
    assert.equal(afterFirst.last_error, 'boom on attempt 1');
    assert.equal(afterFirst.failed_at, null);
    const delay = Date.parse(afterFirst.run_at) - Date.parse(afterFirst.updated_at);
    assert.ok(delay >= 390 && delay <= 450, `run_at moved forward by the backoff (400 ms), got ${delay}`);
    assert.ok(afterFirst.run_at > enqueued.run_at);

    const failed = await eventually(async () => {
      const row = await job(platform, id);
      return row?.failed_at ? row : null;
    });
    assert.equal(failed.attempts, 3);
    assert.equal(failed.last_error, 'boom on attempt 3');
    assert.equal(failed.locked_by, null);
    assert.equal(starts.length, 3, 'three attempts, no more');
    assert.ok(starts[1]! - starts[0]! >= 390, `second attempt waited the first backoff (${starts[1]! - starts[0]!} ms)`);
    assert.ok(starts[2]! - starts[1]! >= 790, `third attempt waited the second backoff (${starts[2]! - starts[1]!} ms)`);
    assert.deepEqual(await failedEvents(platform), [{ job_id: id, job_name: 'system.noop', attempts: 3, last_error: 'boom on attempt 3' }]);
  });

  test('the default backoff grows exponentially from about a second, with jitter, capped at an hour', () => {
    for (let i = 0; i < 50; i++) {
      const first = defaultBackoff(1);
      assert.ok(first >= 750 && first <= 1250, `attempt 1: ${first}`);
      const fifth = defaultBackoff(5);
      assert.ok(fifth >= 12_000 && fifth <= 20_000, `attempt 5: ${fifth}`);
      assert.ok(defaultBackoff(40) <= 4_500_000);
    }
  });

  test('RetryAfterError schedules the next attempt after the delay the handler asked for', async (t) => {
    const platform = await createTestPlatform();
    const starts: number[] = [];
    const registry = registryWith({
      'system.noop': {
        async handler(_payload, ctx) {
          starts.push(Date.now());
          if (ctx.attempt === 1) throw new RetryAfterError('receiver said: retry after 1.2 s', 1200);
        },
        backoff: () => 60_000,
      },
    });
    const id = await enqueueNoop(platform);
    assert.ok(id);
    await startWorker(t, platform, registry).start();
    const waiting = await eventually(async () => {
      const row = await job(platform, id);
      return row && row.attempts === 1 && row.locked_by === null ? row : null;
    });
    assert.equal(waiting.last_error, 'receiver said: retry after 1.2 s');
    const delay = Date.parse(waiting.run_at) - Date.parse(waiting.updated_at);
    assert.ok(delay >= 1190 && delay <= 1250, `run_at is the asked delay, not the backoff: ${delay}`);
    await eventually(async () => !(await job(platform, id)), { what: 'the retried job to complete', timeoutMs: 5000 });
    assert.equal(starts.length, 2);
    assert.ok(starts[1]! - starts[0]! >= 1190, `the retry waited ${starts[1]! - starts[0]!} ms`);
  });

  test('PermanentJobError fails the job at once, keeps it for inspection and frees its key', async (t) => {
    const platform = await createTestPlatform();
    let runs = 0;
    const registry = registryWith({
      'system.noop': {
        async handler() {
          runs++;
          throw new PermanentJobError('the course no longer exists');
        },
      },
    });
    const id = await enqueueNoop(platform, {}, { key: 'sync:7' });
    assert.ok(id);
    await startWorker(t, platform, registry).start();
    const failed = await eventually(async () => {
      const row = await job(platform, id);
      return row?.failed_at ? row : null;
    });
    assert.equal(failed.attempts, 1);
    assert.equal(failed.max_attempts, 10);
    assert.equal(failed.last_error, 'the course no longer exists');
    assert.equal(runs, 1);
    assert.deepEqual(await failedEvents(platform), [
      { job_id: id, job_name: 'system.noop', attempts: 1, last_error: 'the course no longer exists' },
    ]);
    const again = await enqueueNoop(platform, {}, { key: 'sync:7' });
    assert.ok(again && again !== id, 'a failed job does not block its key');
  });

  test('a worker refuses to start while a job name has no handler', async (t) => {
    const platform = await createTestPlatform();
    const id = await enqueueNoop(platform);
    const worker = startWorker(t, platform, registryWith({}, ['tasks.run', 'webhooks.deliver']));
    await assert.rejects(worker.start(), /No handler registered for job\(s\): webhooks\.deliver, tasks\.run/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const row = await job(platform, id!);
    assert.equal(row?.attempts, 0, 'nothing was claimed');
    assert.equal(row?.locked_by, null);
  });

  test('the lease sweep returns a stale job to the queue, and fails one whose last attempt it was', async (t) => {
    const platform = await createTestPlatform();
    const attempts = new Map<string, number>();
    const registry = registryWith({
      'system.noop': { handler: async (payload, ctx) => void attempts.set(payload.marker!, ctx.attempt) },
    });
    const stale = await enqueueNoop(platform, { marker: 'stale' }, { maxAttempts: 5 });
    const last = await enqueueNoop(platform, { marker: 'last attempt' }, { maxAttempts: 1 });
    const anHourAgo = new Date(Date.now() - 3_600_000).toISOString();
    await platform.database.db
      .updateTable('jobs')
      .set({ locked_by: 'dead-host:1:abcdef', locked_at: anHourAgo, attempts: 1 })
      .where('id', 'in', [stale!, last!])
      .execute();

    await startWorker(t, platform, registry, { leaseMs: 1000 }).start();
    await eventually(async () => !(await job(platform, stale!)), { what: 'the stale job to run again', timeoutMs: 5000 });
    assert.equal(attempts.get('stale'), 2, 'the lost attempt counted; this is attempt 2');
    const failed = await eventually(async () => {
      const row = await job(platform, last!);
      return row?.failed_at ? row : null;
    });
    assert.equal(attempts.has('last attempt'), false, 'a job out of attempts is not run again');
    assert.equal(failed.locked_by, null);
    assert.match(failed.last_error ?? '', /lease expired/);
    const events = await failedEvents(platform);
    assert.equal(events.length, 1);
    assert.equal(events[0].job_id, last);
    assert.equal(events[0].attempts, 1);
  });

  test('a live worker renews the lease of a long job, so another worker does not take it over', async (t) => {
    const platform = await createTestPlatform();
    let runs = 0;
    const registry = registryWith({
      'system.noop': {
        async handler() {
          runs++;
          await new Promise((resolve) => setTimeout(resolve, 2000));
        },
      },
    });
    await startWorker(t, platform, registry, { leaseMs: 500 }).start();
    await startWorker(t, platform, registry, { leaseMs: 500 }).start();
    const id = await enqueueNoop(platform);
    await eventually(async () => !(await job(platform, id!)), { what: 'the long job to complete', timeoutMs: 8000 });
    assert.equal(runs, 1, 'the job ran once although it took four leases');
  });

  test('a job enqueued while the worker sleeps starts at once, although the poll interval is 10 minutes', async (t) => {
    const platform = await createTestPlatform();
    let startedAt = 0;
    const registry = registryWith({
      'system.noop': {
        async handler() {
          startedAt = Date.now();
        },
      },
    });
    await startWorker(t, platform, registry, { pollMs: 600_000 }).start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // On PostgreSQL the enqueue comes from another platform (another pool, as from another process),
    // so only NOTIFY can wake the worker; on SQLite the in-process wake-up does.
    let enqueuer = platform;
    if (dialect === 'postgres') {
      enqueuer = assemble(loadConfig({ DATABASE_URL: platform.database.url, ACADEMY_DATA_DIR: platform.config.dataDir, ...secretKeyEnv }), {
        logger: pino({ level: 'silent' }),
      }).platform;
      t.after(() => enqueuer.close());
    }
    for (let round = 0; round < 3; round++) {
      startedAt = 0;
      await enqueueNoop(enqueuer);
      const committed = Date.now();
      await eventually(async () => startedAt, { what: 'the job to start', timeoutMs: 2000 });
      assert.ok(startedAt - committed < 1000, `round ${round}: started ${startedAt - committed} ms after the commit`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  test('stop() lets running jobs finish within the grace period, then aborts the rest and hands them back', async (t) => {
    const platform = await createTestPlatform();
    const outcomes: string[] = [];
    const registry = registryWith({
      'system.noop': {
        async handler(payload, ctx) {
          if (payload.marker === 'quick') {
            await new Promise((resolve) => setTimeout(resolve, 300));
            outcomes.push('quick finished');
            return;
          }
          await new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
        },
      },
    });
    const worker = startWorker(t, platform, registry);
    await worker.start();
    const quick = await enqueueNoop(platform, { marker: 'quick' });
    const stuck = await enqueueNoop(platform, { marker: 'stuck' });
    await eventually(async () => worker.running === 2, { what: 'both jobs to start', timeoutMs: 5000 });
    const stopping = Date.now();
    await worker.stop(800);
    const took = Date.now() - stopping;
    assert.ok(took >= 750 && took < 2500, `stop waited the grace period (${took} ms)`);
    assert.deepEqual(outcomes, ['quick finished']);
    assert.equal(await job(platform, quick!), undefined, 'the job that finished in time completed');
    const handedBack = await job(platform, stuck!);
    assert.ok(handedBack);
    assert.equal(handedBack.locked_by, null, 'the unfinished job is unlocked at once, not after its lease');
    assert.equal(handedBack.failed_at, null);
    assert.equal(handedBack.last_error, 'the worker stopped before the job finished');
    assert.ok(Date.parse(handedBack.run_at) <= Date.now(), 'and due now');
    assert.deepEqual(await failedEvents(platform), []);
  });
});
