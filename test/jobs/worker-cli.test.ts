import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { eventually } from '../support/eventually.ts';
import { createTestPlatform } from '../support/platform.ts';
import { type RunningProcess, runAcademy, startNode, startServer } from '../support/process.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/academy.js');
const processes: RunningProcess[] = [];
after(() => {
  for (const p of processes) p.child.kill('SIGKILL');
});

describe('academy worker and the worker inside academy serve (real processes)', () => {
  test('academy worker runs jobs enqueued elsewhere; on SIGTERM it finishes the running job, then exits 0', async () => {
    const platform = await createTestPlatform();
    const worker = startNode([bin, 'worker', '--concurrency', '3'], {
      DATABASE_URL: platform.database.url,
      ACADEMY_DATA_DIR: platform.config.dataDir,
      LOG_LEVEL: 'warn',
    });
    processes.push(worker);
    const [, id] = await worker.waitFor(/Academy worker (\S+) started \(concurrency 3, database: \w+\)/);
    const job = await platform.database.db.transaction().execute((trx) => platform.queue.enqueue(trx, 'system.noop', { sleepMs: 1500 }));
    await eventually(async () => (await platform.jobs.findById(job!))?.locked_by === id, {
      what: 'the worker to take the job',
      timeoutMs: 5000,
    });

    const signalled = Date.now();
    worker.child.kill('SIGTERM');
    assert.equal(await worker.exited, 0, worker.output());
    assert.ok(Date.now() - signalled >= 1000, 'it waited for the running job');
    assert.match(worker.output(), /SIGTERM: stopping; waiting for 1 running job\(s\) to finish/);
    assert.equal(await platform.jobs.findById(job!), undefined, 'the job completed before the process exited');
  });

  test('with ACADEMY_METRICS_PORT, academy worker serves /livez, /readyz and /metrics there', async () => {
    const platform = await createTestPlatform();
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const worker = startNode([bin, 'worker'], {
      DATABASE_URL: platform.database.url,
      ACADEMY_DATA_DIR: platform.config.dataDir,
      ACADEMY_METRICS_PORT: String(port),
      LOG_LEVEL: 'warn',
    });
    processes.push(worker);
    await worker.waitFor(/\/livez, \/readyz and \/metrics on http:\/\/127\.0\.0\.1:\d+/);
    const base = `http://127.0.0.1:${port}`;
    assert.equal((await fetch(`${base}/livez`)).status, 200);
    assert.equal((await fetch(`${base}/readyz`)).status, 200);
    const metrics = await (await fetch(`${base}/metrics`)).text();
    assert.match(metrics, /^academy_worker_running_jobs 0$/m);
    assert.match(metrics, /process_cpu_user_seconds_total/);
    worker.child.kill('SIGTERM');
    assert.equal(await worker.exited, 0, worker.output());
  });

  test('academy worker rejects a bad --concurrency before touching the database', async () => {
    const result = await runAcademy(['worker', '--concurrency', '0'], { DATABASE_URL: 'postgres://127.0.0.1:1/nowhere' });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /--concurrency must be a whole number from 1 to 64/);
  });

  test('academy worker and serve stop at start on an unreadable ACADEMY_DOCUMENT_TYPES_FILE (exit 78), naming it', async () => {
    const platform = await createTestPlatform();
    const env = {
      DATABASE_URL: platform.database.url,
      ACADEMY_DATA_DIR: platform.config.dataDir,
      ACADEMY_DOCUMENT_TYPES_FILE: path.join(platform.config.dataDir, 'no-such-types.json'),
      PORT: '0',
    };
    for (const command of [['worker'], ['serve', '--no-worker']]) {
      const result = await runAcademy(['--json', ...command], env);
      assert.equal(result.code, 78, `${command.join(' ')}: ${result.stderr}`);
      const error = JSON.parse(result.stderr.trim().split('\n').pop() as string);
      assert.equal(error.code, 'invalid_configuration');
      assert.match(error.message, /ACADEMY_DOCUMENT_TYPES_FILE/);
    }
  });

  test('academy serve runs jobs in-process and stops its worker on shutdown; --no-worker leaves them queued', async () => {
    const platform = await createTestPlatform();
    const env = { DATABASE_URL: platform.database.url, ACADEMY_DATA_DIR: platform.config.dataDir };
    const enqueue = () => platform.database.db.transaction().execute((trx) => platform.queue.enqueue(trx, 'system.noop', {}));

    const apiOnly = await startServer(['--no-worker'], env);
    processes.push(apiOnly);
    const waiting = await enqueue();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal((await platform.jobs.findById(waiting!))?.attempts, 0, 'no worker in `serve --no-worker`');
    assert.doesNotMatch(apiOnly.output(), /Academy worker/);
    apiOnly.child.kill('SIGTERM');
    assert.equal(await apiOnly.exited, 0);

    const server = await startServer([], env);
    processes.push(server);
    await server.waitFor(/Academy worker \S+ started/);
    await eventually(async () => !(await platform.jobs.findById(waiting!)), { what: 'the waiting job to run', timeoutMs: 5000 });
    const fresh = await enqueue();
    await eventually(async () => !(await platform.jobs.findById(fresh!)), { what: 'a new job to run', timeoutMs: 5000 });
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0, server.output());
  });
});
