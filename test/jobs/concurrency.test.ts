import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import { dialect } from '../support/env.ts';
import { eventually } from '../support/eventually.ts';
import { createTestPlatform } from '../support/platform.ts';
import { type RunningProcess, startNode } from '../support/process.ts';

const JOBS = 1000;

const processes: RunningProcess[] = [];
after(() => {
  for (const p of processes) p.child.kill('SIGKILL');
});

test('two worker processes over 1,000 jobs: every job runs exactly once, never twice at the same time', {
  skip: dialect === 'sqlite' ? 'SQLite has a single writer; concurrent claiming (SKIP LOCKED) is a PostgreSQL matter' : false,
}, async () => {
  const platform = await createTestPlatform();
  const { db } = platform.database;
  await sql`create table test_job_runs (job_id integer not null, attempt integer not null, worker text not null, started_at text not null, finished_at text)`.execute(
    db,
  );
  const env = {
    DATABASE_URL: platform.database.url,
    ACADEMY_DATA_DIR: platform.config.dataDir,
    ACADEMY_WORKER_CONCURRENCY: '8',
    ACADEMY_JOB_LEASE_SECONDS: '60',
  };
  const workers = [0, 1].map(() => {
    const p = startNode(['test/support/worker-process.ts'], env);
    processes.push(p);
    return p;
  });
  const ids = await Promise.all(workers.map(async (p) => (await p.waitFor(/worker (\S+) started/))[1]));

  // One transaction: both workers are woken by the same NOTIFY and race for the same rows.
  const enqueued = await db.transaction().execute(async (trx) => {
    const out: number[] = [];
    for (let i = 0; i < JOBS; i++) out.push((await platform.queue.enqueue(trx, 'system.noop', { sleepMs: i % 3 }))!);
    return out;
  });
  await eventually(async () => (await db.selectFrom('jobs').select('id').limit(1).execute()).length === 0, {
    what: 'the queue to drain',
    timeoutMs: 90_000,
  });

  const runs = (
    await sql<{ job_id: number; attempt: number; worker: string; finished_at: string | null }>`select * from test_job_runs`.execute(db)
  ).rows;
  assert.equal(runs.length, JOBS, 'one run per job, no more');
  assert.equal(new Set(runs.map((r) => r.job_id)).size, JOBS, 'no job ran twice');
  assert.deepEqual(new Set(runs.map((r) => r.job_id)), new Set(enqueued), 'every enqueued job ran');
  assert.ok(
    runs.every((r) => r.attempt === 1 && r.finished_at),
    'each ran in its first attempt, to the end',
  );
  const perWorker = ids.map((id) => runs.filter((r) => r.worker === id).length);
  assert.ok(
    perWorker.every((n) => n >= 50),
    `both workers took part: ${perWorker.join(' + ')}`,
  );
  assert.equal(perWorker[0]! + perWorker[1]!, JOBS);
  assert.deepEqual(await platform.events.listByType('job.failed'), []);

  for (const p of workers) p.child.kill('SIGTERM');
  assert.deepEqual(await Promise.all(workers.map((p) => p.exited)), [0, 0], 'both stop cleanly');
});
