import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import { eventually } from '../support/eventually.ts';
import { createTestPlatform } from '../support/platform.ts';
import { type RunningProcess, startNode } from '../support/process.ts';

const processes: RunningProcess[] = [];
after(() => {
  for (const p of processes) p.child.kill('SIGKILL');
});

interface Run {
  job_id: number;
  attempt: number;
  worker: string;
  started_at: string;
  finished_at: string | null;
}

test('a worker process killed in the middle of a job: after the lease, another process runs it to completion, once', async () => {
  const platform = await createTestPlatform();
  const { db } = platform.database;
  await sql`create table test_job_runs (job_id integer not null, attempt integer not null, worker text not null, started_at text not null, finished_at text)`.execute(
    db,
  );
  const runs = async () => (await sql<Run>`select * from test_job_runs order by attempt`.execute(db)).rows;
  const env = {
    DATABASE_URL: platform.database.url,
    ACADEMY_DATA_DIR: platform.config.dataDir,
    ACADEMY_JOB_LEASE_SECONDS: '2',
    ACADEMY_JOB_POLL_MS: '200',
    ACADEMY_WORKER_CONCURRENCY: '2',
  };
  const worker = (sleepMs: number) => {
    const p = startNode(['test/support/worker-process.ts'], { ...env, TEST_JOB_SLEEP_MS: String(sleepMs) });
    processes.push(p);
    return p;
  };

  // The first worker takes the job and would work on it for 30 s.
  const first = worker(30_000);
  const firstId = (await first.waitFor(/worker (\S+) started/))[1];
  const id = await db.transaction().execute((trx) => platform.queue.enqueue(trx, 'system.noop', { sleepMs: 30_000 }));
  assert.ok(id);
  await eventually(async () => (await runs()).length === 1, { what: 'the first worker to start the job', timeoutMs: 10_000 });
  const locked = await platform.jobs.findById(id);
  assert.equal(locked?.locked_by, firstId);

  first.child.kill('SIGKILL');
  assert.equal(await first.exited, 'SIGKILL');
  const killedAt = Date.now();
  assert.equal((await platform.jobs.findById(id))?.locked_by, firstId, 'the dead worker still holds the lock');

  // A second worker (where the job is quick) sweeps the expired lock back and runs the job.
  const second = worker(0);
  const secondId = (await second.waitFor(/worker (\S+) started/))[1];
  await eventually(async () => !(await platform.jobs.findById(id)), {
    what: 'the job to complete in the second worker',
    timeoutMs: 15_000,
  });
  const [killed, completed, ...more] = await runs();
  assert.equal(more.length, 0, 'two runs, no more');
  assert.deepEqual(
    { ...killed, started_at: undefined },
    { job_id: id, attempt: 1, worker: firstId, finished_at: null, started_at: undefined },
  );
  assert.equal(completed?.job_id, id);
  assert.equal(completed.attempt, 2, 'the lost attempt counts: attempts == 2');
  assert.equal(completed.worker, secondId);
  assert.ok(completed.finished_at, 'the second run finished');
  assert.ok(Date.parse(completed.started_at) >= killedAt + 500, 'it was taken over only once the lease had run out');
  assert.deepEqual(await db.selectFrom('jobs').select(['id', 'locked_by']).execute(), [], 'nothing lost, nothing left locked');
  assert.deepEqual(await platform.events.listByType('job.failed'), []);

  second.child.kill('SIGTERM');
  assert.equal(await second.exited, 0, 'the second worker stops cleanly on SIGTERM');
  assert.match(second.output(), /worker stopped/);
});
