import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { keptTotals } from '../../src/db/totals.ts';
import { outsideWrites } from '../support/database.ts';
import { createTestPlatform } from '../support/platform.ts';

// The kept totals (src/db/totals.ts, ADR 0015) drop the least recently used past 500, but keep the
// totals of 1,000 rows or more apart from the smaller ones: a stream of new small totals must not
// push out a large one, which costs far more to count again.
describe('kept totals: large ones outlast a stream of small ones', () => {
  test('a total of 1,200 rows is given after 600 new totals of one row; a small one is not', async () => {
    const platform = await createTestPlatform();
    const { db, dialect } = platform.database;
    const any = db as Kysely<any>;
    await sql`create table kept_tiers (v integer not null)`.execute(db);
    await sql`insert into kept_tiers (v) with recursive n(v) as (select 1 union all select v + 1 from n where v < 1200) select v from n`.execute(
      db,
    );
    const totals = keptTotals(db, dialect);
    const large = any.selectFrom('kept_tiers').where('v', '>', 0);
    const small = any.selectFrom('kept_tiers').where('v', '=', 1);
    const others = Array.from({ length: 600 }, (_, i) => any.selectFrom('kept_tiers').where('v', '=', i + 2));

    // PostgreSQL's version moves with any write to the server (other test files): repeated until none fell between.
    for (let attempt = 1; ; attempt++) {
      const before = await outsideWrites(platform.database);
      assert.equal(await totals.count(large, db), 1200);
      assert.equal(await totals.count(small, db), 1);
      for (const other of others) assert.equal(await totals.count(other, db), 1);
      const { counted, kept } = totals.stats;
      assert.equal(await totals.count(large, db), 1200);
      assert.equal(await totals.count(small, db), 1);
      if (before !== (await outsideWrites(platform.database)) && attempt < 20) continue;
      assert.equal(totals.stats.kept, kept + 1, 'the large total was given from the kept ones');
      assert.equal(totals.stats.counted, counted + 1, 'the small one, pushed out by 600 newer, was counted again');
      break;
    }
  });
});
