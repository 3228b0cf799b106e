import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { sqliteFile } from '../../src/db/database.ts';
import { isDatabaseUnavailable, READER_UNAVAILABLE } from '../../src/db/errors.ts';
import { createSqliteReaders } from '../../src/db/sqlite-readers.ts';
import { dialect } from '../support/env.ts';
import { createTestPlatform } from '../support/platform.ts';

/** A statement that keeps one core busy for a while (a few hundred milliseconds at 3 million steps). */
const busy = (steps: number) =>
  `with recursive c(x) as (select 1 union all select x + 1 from c where x < ${steps}) select count(*) as n from c`;

describe('SQLite reader threads', { skip: dialect === 'sqlite' ? false : 'SQLite: reader threads of its file' }, () => {
  test('run statements off the main thread, see what the main connection committed, and write nothing', async () => {
    const platform = await createTestPlatform({ env: { ACADEMY_SQLITE_READERS: '2' } });
    const { db } = platform.database;
    const planned = platform.database.planned();
    assert.notEqual(planned, db, 'the long reads have connections of their own');

    // The main thread goes on while a reader works: its timers fire during the statement.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const { rows } = await sql<{ n: number }>`${sql.raw(busy(3_000_000))}`.execute(planned);
    clearInterval(timer);
    assert.equal(Number(rows[0]?.n), 3_000_000);
    assert.ok(ticks >= 5, `the main thread ran its timers during the statement (${ticks} ticks)`);

    // A write committed on the main connection is seen by the next read on a reader.
    await sql`create table readers_test (value text)`.execute(db);
    await sql`insert into readers_test (value) values ('seen')`.execute(db);
    const seen = await sql<{ value: string }>`select value from readers_test`.execute(planned);
    assert.deepEqual(seen.rows, [{ value: 'seen' }]);

    // A reader writes nothing, and its error keeps SQLite's message and codes.
    await assert.rejects(sql`delete from readers_test`.execute(planned), (error: Error & { code?: unknown; errcode?: unknown }) => {
      assert.match(error.message, /readonly|query_only|attempt to write/i);
      assert.equal(error.code, 'ERR_SQLITE_ERROR');
      assert.equal(typeof error.errcode, 'number');
      assert.equal(isDatabaseUnavailable(error), false, 'a refused statement is the statement’s fault, not an outage');
      return true;
    });
    assert.deepEqual((await sql`select value from readers_test`.execute(db)).rows, [{ value: 'seen' }], 'nothing deleted');
    await assert.rejects(sql`selec 1`.execute(planned), /syntax error/);
    await assert.rejects(
      planned.transaction().execute(async () => {}),
      /single statements; a transaction runs on the main connection/,
    );
  });

  test('a statement past the statement timeout is stopped, the database reported unavailable, and the next one runs', async () => {
    const platform = await createTestPlatform();
    const file = sqliteFile(platform.database.url);
    const readers = createSqliteReaders(file, 1, { statementMs: 300 });
    try {
      const started = performance.now();
      await assert.rejects(readers.all(busy(10_000_000), []), (error: Error & { code?: unknown }) => {
        assert.equal(error.code, READER_UNAVAILABLE);
        assert.match(error.message, /statement timeout \(300 ms\)/);
        assert.equal(isDatabaseUnavailable(error), true, 'answered as a 503, as a PostgreSQL statement timeout is');
        return true;
      });
      const waited = performance.now() - started;
      assert.ok(waited < 1000, `failed near the timeout, not at the statement's end (${Math.round(waited)} ms)`);
      assert.deepEqual(await readers.all('select 41 + 1 as answer', []), [{ answer: 42 }]);
      assert.equal(readers.running(), 1);
    } finally {
      await readers.close();
    }
    assert.equal(readers.running(), 0);
    await assert.rejects(readers.all('select 1', []), (error: Error & { code?: unknown }) => error.code === READER_UNAVAILABLE);
  });

  test('statements are spread over the threads: two long ones run side by side', async () => {
    const platform = await createTestPlatform();
    const readers = createSqliteReaders(sqliteFile(platform.database.url), 2);
    try {
      const two = [readers.all(busy(1_000_000), []), readers.all(busy(1_000_000), [])];
      assert.deepEqual(readers.waiting(), [1, 1], 'one statement on each thread, not two on one');
      const third = readers.all('select 3 as n', []);
      assert.deepEqual([...readers.waiting()].sort(), [1, 2]);
      assert.deepEqual(await third, [{ n: 3 }]);
      for (const rows of await Promise.all(two)) assert.deepEqual(rows, [{ n: 1_000_000 }]);
      assert.deepEqual(readers.waiting(), [0, 0]);
      assert.equal(readers.running(), 2);
    } finally {
      await readers.close();
    }
  });

  test('an in-memory database has no readers: its long reads run on its one connection', async () => {
    const { openDatabase } = await import('../../src/db/database.ts');
    const database = openDatabase('sqlite::memory:', { readers: 2 });
    try {
      assert.equal(database.planned(), database.db);
    } finally {
      await database.close();
    }
  });
});
