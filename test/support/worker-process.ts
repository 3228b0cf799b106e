// A real worker process for the tests that kill or race workers (test/jobs/crash, concurrency). It
// builds a platform from the environment like `academy worker` does, but its `system.noop` handler
// records every run in `test_job_runs` (a table the test creates), so the test can see which process
// ran which job, when, and whether it finished.
//   env: DATABASE_URL, ACADEMY_WORKER_CONCURRENCY, ACADEMY_JOB_LEASE_SECONDS, ACADEMY_JOB_POLL_MS,
//        TEST_JOB_SLEEP_MS (overrides every job's sleepMs: the same job is slow in one process only)
import { sql } from 'kysely';
import pino from 'pino';
import { assemble } from '../../src/assembly/modules.ts';
import { loadConfig } from '../../src/config.ts';
import { createJobRegistry } from '../../src/platform/jobs/registry.ts';

const config = loadConfig();
const { platform } = assemble(config, { logger: pino({ level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination(2)) });
const { db } = platform.database;
const sleepOverride = process.env.TEST_JOB_SLEEP_MS;

const registry = createJobRegistry();
for (const name of platform.registry.names()) {
  if (name !== 'system.noop') registry.register(name, { async handler() {} });
}
registry.register('system.noop', {
  async handler(payload, ctx) {
    const worker = ctx.job.locked_by ?? 'unknown';
    await sql`insert into test_job_runs (job_id, attempt, worker, started_at) values (${ctx.job.id}, ${ctx.attempt}, ${worker}, ${new Date().toISOString()})`.execute(
      db,
    );
    const sleepMs = sleepOverride === undefined ? (payload.sleepMs ?? 0) : Number(sleepOverride);
    if (sleepMs > 0) await new Promise((resolve) => setTimeout(resolve, sleepMs));
    await sql`update test_job_runs set finished_at = ${new Date().toISOString()} where job_id = ${ctx.job.id} and attempt = ${ctx.attempt} and worker = ${worker}`.execute(
      db,
    );
  },
});

const worker = platform.createWorker(
  { concurrency: config.workerConcurrency, leaseMs: config.jobLeaseMs, pollMs: config.jobPollMs },
  registry,
);
await worker.start();
process.stdout.write(`worker ${worker.id} started\n`);

process.once('SIGTERM', async () => {
  await worker.stop();
  await platform.close();
  process.stdout.write('worker stopped\n');
});
