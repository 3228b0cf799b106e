import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { dialect } from '../support/env.ts';
import { createTestPlatform } from '../support/platform.ts';

/** pg's pool closes a client idle this long unless told otherwise, and its session's plans with it. */
const PG_IDLE_TIMEOUT_MS = 10_000;

test('the planned connections outlive an idle spell, and the plans their sessions keep', {
  skip: dialect === 'sqlite' ? 'SQLite plans in its own process; nothing is closed when idle' : false,
}, async () => {
  const platform = await createTestPlatform();
  const planned = platform.database.planned();
  const session = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(planned)).rows[0]?.pid;
  const before = await session();
  assert.ok(before);
  await sleep(PG_IDLE_TIMEOUT_MS + 1500);
  // One statement at a time takes the same idle connection again: its session is the same server process.
  assert.equal(await session(), before);
});
