import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { createTestPlatform } from '../support/platform.ts';

test('a held snapshot refuses reads once closed, and ends the reads still waiting for a connection', async () => {
  const platform = await createTestPlatform();
  const { database } = platform;
  const one = sql`select 1 as one`.compile(database.db);
  const snapshot = await database.holdSnapshot(1);
  // On PostgreSQL the second read waits for the snapshot's one connection.
  const first = snapshot.arrays(one);
  const second = snapshot.arrays(one);
  second.catch(() => {});
  assert.deepEqual((await first).rows, [[1]]);
  await snapshot.close();
  await second.then(
    (result) => assert.deepEqual(result.rows, [[1]], 'a read that got the connection before the close is answered'),
    (error: Error) => assert.match(error.message, /closed/),
  );
  await assert.rejects(snapshot.arrays(one), /closed/);
  await snapshot.close();
});
