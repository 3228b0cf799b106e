import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, test } from 'node:test';
import pino from 'pino';
import { assemble } from '../../src/assembly/modules.ts';
import { loadConfig } from '../../src/config.ts';
import { dialect, postgresAdminUrl, secretKeyEnv } from '../support/env.ts';
import { eventually } from '../support/eventually.ts';
import { createTestPlatform } from '../support/platform.ts';
import { createTcpProxy } from '../support/tcp-proxy.ts';

test('a worker whose database goes away logs, keeps retrying, and carries on when it is back', {
  skip: dialect === 'sqlite' ? 'an SQLite file does not go away; this is about a database server' : false,
}, async () => {
  const platform = await createTestPlatform();
  const admin = new URL(postgresAdminUrl);
  const proxy = await createTcpProxy({ host: admin.hostname, port: Number(admin.port) || 5432 });

  const lines: { msg: string; channel?: string }[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    }),
  );
  const { platform: workerPlatform } = assemble(
    loadConfig({ DATABASE_URL: proxy.url(platform.database.url), ACADEMY_DATA_DIR: platform.config.dataDir, ...secretKeyEnv }),
    {
      logger,
    },
  );
  const worker = workerPlatform.createWorker({ pollMs: 600_000 });
  after(async () => {
    await worker.stop(1000);
    await workerPlatform.close();
  });
  await worker.start();
  const enqueue = () => platform.database.db.transaction().execute((trx) => platform.queue.enqueue(trx, 'system.noop', {}));
  const done = async (id: number | undefined) => !(await platform.jobs.findById(id!));

  const before = await enqueue();
  await eventually(() => done(before), { what: 'a job to run while the database is reachable', timeoutMs: 5000 });

  await proxy.cut({ refuse: true });
  const during = await enqueue();
  await eventually(async () => lines.some((l) => l.msg === 'notification connection lost; reconnecting' && l.channel === 'academy_jobs'), {
    what: 'the worker to log the lost connection',
    timeoutMs: 5000,
  });
  worker.wake();
  await eventually(async () => lines.some((l) => l.msg === 'worker could not reach the job table; retrying'), {
    what: 'a logged retry',
    timeoutMs: 5000,
  });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  assert.ok(await platform.jobs.findById(during!), 'the job waits while the worker cannot reach the database');

  await proxy.resume();
  await eventually(() => done(during), { what: 'the job enqueued during the outage to run once the database is back', timeoutMs: 20_000 });
  // LISTEN is re-established: with a 10-minute poll, only NOTIFY can start a new job this quickly.
  await eventually(async () => lines.some((l) => l.msg === 'notification connection restored' && l.channel === 'academy_jobs'), {
    what: 'LISTEN to reconnect',
    timeoutMs: 20_000,
  });
  const afterwards = await enqueue();
  const enqueuedAt = Date.now();
  await eventually(() => done(afterwards), { what: 'a new job to run after the outage', timeoutMs: 5000 });
  assert.ok(Date.now() - enqueuedAt < 1000, `woken by NOTIFY again (${Date.now() - enqueuedAt} ms)`);
});
