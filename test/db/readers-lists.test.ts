import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { listPage } from '../../src/db/list.ts';
import { keptTotals } from '../../src/db/totals.ts';
import { dialect } from '../support/env.ts';
import { createTestPlatform } from '../support/platform.ts';

/** Whether `executor` is a reader thread's connection (opened `query_only`) rather than the main one. */
async function onReader(executor: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ query_only: number }>`select query_only from pragma_query_only`.execute(executor);
  return Number(rows[0]?.query_only) === 1;
}

describe('SQLite: lists read on the reader threads', { skip: dialect === 'sqlite' ? false : 'SQLite: reader threads of its file' }, () => {
  test('a read is given at one version of the main connection, and refused when a commit came between', async () => {
    const platform = await createTestPlatform({ env: { ACADEMY_SQLITE_READERS: '2' } });
    const { db } = platform.database;
    const readers = platform.database.readers;
    assert.ok(readers, 'a SQLite file with reader threads offers them to lists');
    const any = db as Kysely<any>;
    await sql`create table readers_list (v integer)`.execute(db);
    await sql`insert into readers_list (v) values (1), (2), (3)`.execute(db);
    const totals = keptTotals(db, 'sqlite');
    const rows = any.selectFrom('readers_list').select('v');

    const first = await totals.atOneVersion(readers, async (executor, at) => {
      assert.equal(await onReader(executor), true, 'the statements run on a reader thread');
      return totals.count(rows, executor, at);
    });
    assert.equal(first, 3);
    const { counted, kept } = totals.stats;
    // At the same version the total kept under the main connection's version is given, not counted again.
    assert.equal(await totals.atOneVersion(readers, (executor, at) => totals.count(rows, executor, at)), 3);
    assert.deepEqual([totals.stats.counted, totals.stats.kept], [counted, kept + 1]);

    // A commit between the two reads of the version: the answer is not given (the caller reads again).
    const overtaken = await totals.atOneVersion(readers, async (executor, at) => {
      const total = await totals.count(rows, executor, at);
      await sql`insert into readers_list (v) values (4)`.execute(db);
      return total;
    });
    assert.equal(overtaken, undefined);
    // The total counted by the overtaken read (3, kept at the old version) is never given again.
    assert.equal(await totals.atOneVersion(readers, (executor, at) => totals.count(rows, executor, at)), 4);
  });

  test('listPage reads its page and count on the readers, and in a snapshot of the main connection when a commit comes between', async () => {
    const platform = await createTestPlatform({ env: { ACADEMY_SQLITE_READERS: '2' } });
    const { db } = platform.database;
    const readers = platform.database.readers;
    assert.ok(readers);
    const any = db as Kysely<any>;
    await sql`create table readers_page (id integer primary key, v integer)`.execute(db);
    await sql`insert into readers_page (v) with recursive n(v) as (select 1 union all select v + 1 from n where v < 50) select v from n`.execute(
      db,
    );
    const totals = keptTotals(db, 'sqlite');
    const list = any.selectFrom('readers_page').select(['id', 'v']);
    const request = { page: { page: 2, perPage: 10, offset: 10 }, sort: 'id', direction: 'asc' as const };
    const read = () => listPage(db, list, request, { sort: { id: 'id' } }, { kept: totals, keepCount: true, keepPages: false, readers });
    const page = await read();
    assert.equal(page.total, 50);
    assert.deepEqual(
      page.items.map((row) => (row as { v: number }).v),
      Array.from({ length: 10 }, (_, i) => i + 11),
    );

    // Every write between the version's two reads sends the page back to the main connection, whose
    // snapshot gives rows and total that agree.
    let writes = 0;
    const original = readers.executeQuery.bind(readers);
    const writing = new Proxy(readers, {
      get(target, key, receiver) {
        if (key !== 'executeQuery') return Reflect.get(target, key, receiver);
        return async (query: Parameters<typeof original>[0]) => {
          const result = await original(query);
          writes++;
          await sql`delete from readers_page where id = (select min(id) from readers_page)`.execute(db);
          return result;
        };
      },
    });
    const after = await listPage(
      db,
      list,
      request,
      { sort: { id: 'id' } },
      { kept: totals, keepCount: true, keepPages: false, readers: writing },
    );
    assert.ok(writes > 0, 'the page was read on the readers first');
    const left = Number((await sql<{ n: number }>`select count(*) as n from readers_page`.execute(db)).rows[0]?.n);
    assert.equal(after.total, left, 'the total is the rows there are, read with the page');
    assert.deepEqual(
      after.items.map((row) => (row as { v: number }).v),
      Array.from({ length: 10 }, (_, i) => i + 11 + (50 - left)),
      'the page is the one of that total',
    );
  });
});
