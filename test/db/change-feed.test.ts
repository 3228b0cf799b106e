import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createReadCache } from '../../src/platform/changes.ts';
import { dialect } from '../support/env.ts';
import { eventually } from '../support/eventually.ts';
import { createTestPlatform } from '../support/platform.ts';
import { keeping } from '../support/proxied.ts';

/** Tests of the listening connection, which SQLite has not. */
const listenerTest = { skip: dialect === 'sqlite' ? 'SQLite has no listening connection' : false };

test('a write is read back at once by its own process, although a read during its commit loaded the row before it', {
  // One connection per process there: a read waits for the writing transaction to end.
  skip: dialect === 'sqlite' ? 'SQLite reads of this process wait for its transaction' : false,
}, async () => {
  const platform = await createTestPlatform();
  const { db } = platform.database;
  const cache = createReadCache<'organization', string>(platform.changes);
  const name = () =>
    cache.get('organization', async () => (await db.selectFrom('organization').select('name').executeTakeFirstOrThrow()).name);
  const listening = () => keeping(platform);
  await eventually(listening, { what: 'the change listener to be up', timeoutMs: 5000 });
  assert.equal(await name(), 'Academy');

  await db.transaction().execute(async (trx) => {
    await trx.updateTable('organization').set({ name: 'Renamed' }).where('id', '=', 1).execute();
    await platform.changes.announce(trx);
    // Another request, on another connection, before the commit: it sees the committed row.
    assert.equal(await name(), 'Academy');
  });
  // Right after the commit, before its notification has come back (no I/O has run since).
  assert.equal(await name(), 'Renamed', 'the read after the commit sees the write, not what was read during it');
  // Once the notification is back, values are kept again.
  await eventually(listening, { what: 'the notification of the write to come back', timeoutMs: 5000 });
  assert.equal(await name(), 'Renamed');
  const kept = name();
  assert.equal(typeof kept, 'string', 'a value read after the notification is kept (answered without a promise)');

  // A write rolled back never notifies: its transaction's status is looked up, and its process keeps
  // values again soon after.
  await assert.rejects(
    db.transaction().execute(async (trx) => {
      await platform.changes.announce(trx);
      throw new Error('rolled back');
    }),
    /rolled back/,
  );
  assert.equal(listening(), false, 'nothing is kept while the rolled-back write is not heard back');
  await eventually(listening, { what: 'values to be kept again after a write rolled back', timeoutMs: 3000 });
});

test('writes committed before the change listener was up do not keep caches from keeping values', listenerTest, async () => {
  const platform = await createTestPlatform();
  const { db } = platform.database;
  // Announced and committed before anything looked at the stamp: no listener heard them.
  for (const name of ['First', 'Second']) {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('organization').set({ name }).where('id', '=', 1).execute();
      await platform.changes.announce(trx);
    });
  }
  const listening = () => keeping(platform);
  await eventually(listening, { what: 'values to be kept once the writes are known to be committed', timeoutMs: 3000 });
});

test('a write still in progress long after its announcement is looked up at most once per 250 ms', listenerTest, async () => {
  const platform = await createTestPlatform();
  const { db } = platform.database;
  const stats = platform.changes.stats as { lookUps: number };
  const listening = () => keeping(platform);
  await eventually(listening, { what: 'the change listener to be up', timeoutMs: 5000 });
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('organization').set({ name: 'Long' }).where('id', '=', 1).execute();
    await platform.changes.announce(trx);
    const before = stats.lookUps;
    // A second of reads, one every 2 ms, while the write stays open.
    const started = performance.now();
    while (performance.now() - started < 1000) {
      assert.equal(listening(), false, 'nothing is kept while the write is in progress');
      await sleep(2);
    }
    const made = stats.lookUps - before;
    assert.ok(made >= 1 && made <= 5, `${made} look-ups in a second`);
  });
  await eventually(listening, { what: 'values to be kept again after the commit', timeoutMs: 3000 });
});

test('misses of one key while nothing changes share one load; a change or a failure lets the next miss load again', async () => {
  const platform = await createTestPlatform();
  await eventually(() => keeping(platform), { what: 'the process to keep what it reads', timeoutMs: 5000 });
  const cache = createReadCache<string, string>(platform.changes);
  const loads: string[] = [];
  const gated = () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const loader = (value: string) => async () => {
      loads.push(value);
      await gate;
      return value;
    };
    return { open, loader };
  };

  // A burst of requests after the cache emptied: one query, one answer for all.
  const first = gated();
  const burst = Array.from({ length: 32 }, () => cache.get('token', first.loader('first')));
  const other = cache.get('other key', first.loader('other'));
  assert.deepEqual(loads, ['first', 'other'], 'one load per key');
  first.open();
  assert.deepEqual(await Promise.all(burst), Array(32).fill('first'));
  assert.equal(await other, 'other');
  assert.equal(cache.get('token', first.loader('unused')), 'first', 'kept once loaded');

  // A load begun before a change is not joined by a miss after it.
  loads.length = 0;
  const before = gated();
  const pending = cache.get('after a change', before.loader('before'));
  await platform.database.db.transaction().execute((trx) => platform.changes.announce(trx));
  const after = gated();
  const fresh = cache.get('after a change', after.loader('after'));
  assert.deepEqual(loads, ['before', 'after']);
  before.open();
  after.open();
  assert.equal(await pending, 'before');
  assert.equal(await fresh, 'after');

  // A failed load fails every request that joined it, and the next miss loads again.
  await eventually(() => keeping(platform), { what: 'the process to keep what it reads again', timeoutMs: 5000 });
  let fail!: (error: Error) => void;
  const failing = new Promise<string>((_resolve, reject) => {
    fail = reject;
  });
  const joined = [cache.get('flaky', () => failing), cache.get('flaky', () => Promise.resolve('not asked'))];
  fail(new Error('database unavailable'));
  for (const answer of joined) await assert.rejects(Promise.resolve(answer), /database unavailable/);
  assert.equal(await cache.get('flaky', async () => 'loaded again'), 'loaded again');
});
