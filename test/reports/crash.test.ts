import assert from 'node:assert/strict';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { seedScale } from '../../src/modules/demo/scale.ts';
import { operatorContext } from '../../src/platform/context.ts';
import { eventually } from '../support/eventually.ts';
import { createTestAssembly } from '../support/platform.ts';
import { type RunningProcess, startNode } from '../support/process.ts';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/academy.js');
const processes: RunningProcess[] = [];
after(() => {
  for (const p of processes) p.child.kill('SIGKILL');
});

test('a worker killed while generating a report: after restart the report still becomes available, with every row', async () => {
  const { platform, services } = await createTestAssembly();
  // Enough enrolments that generating them takes a moment (about 125,000).
  await seedScale(platform, 0.25);
  const { db } = platform.database;
  const enrolments = Number(
    (
      await db
        .selectFrom('enrolments')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const env = {
    DATABASE_URL: platform.database.url,
    ACADEMY_DATA_DIR: platform.config.dataDir,
    ACADEMY_JOB_LEASE_SECONDS: '2',
    ACADEMY_JOB_POLL_MS: '100',
  };
  const worker = () => {
    const started = startNode([bin, 'worker'], env);
    processes.push(started);
    return started;
  };
  const status = async (id: number) =>
    db.selectFrom('reports').select(['status', 'row_count', 'attempts', 'storage_key']).where('id', '=', id).executeTakeFirstOrThrow();

  const report = await services.reports.request(operatorContext(platform), { type: 'enrolments', format: 'csv' });
  const first = worker();
  // Killed once it has written rows (its progress is recorded after its first page, then every half
  // second) and before it is done.
  await eventually(
    async () => {
      const now = await status(report.id);
      return now.status === 'generating' && (now.row_count ?? 0) > 0;
    },
    { what: 'the first worker to be part-way through the report', timeoutMs: 20_000, intervalMs: 5 },
  );
  first.child.kill('SIGKILL');
  assert.equal(await first.exited, 'SIGKILL');
  const stopped = await status(report.id);
  assert.equal(stopped.status, 'generating', 'killed part-way');
  assert.ok((stopped.row_count ?? 0) < enrolments);

  worker();
  const done = await eventually(
    async () => {
      const now = await status(report.id);
      return now.status === 'available' || now.status === 'failed' ? now : null;
    },
    { what: 'the report to be finished by the second worker', timeoutMs: 40_000, intervalMs: 50 },
  );
  assert.equal(done.status, 'available');
  assert.equal(done.attempts, 2, 'generated again from the start');
  assert.equal(done.row_count, enrolments);
  const { stream } = await platform.storage.get(done.storage_key as string);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const rows = parse(Buffer.concat(chunks), { columns: true }) as { enrolment_id: string }[];
  assert.equal(rows.length, enrolments);
  assert.equal(new Set(rows.map((r) => r.enrolment_id)).size, enrolments, 'no row twice');
});
