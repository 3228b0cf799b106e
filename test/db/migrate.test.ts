import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { openDatabase } from '../../src/db/database.ts';
import { migrate } from '../../src/db/migrate.ts';
import { createTestDatabase } from '../support/database.ts';
import { dialect } from '../support/env.ts';

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A new, empty database and a connection to it with a server's timeouts, both removed after the tests. */
async function newDatabase() {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const db = openDatabase(database.url, {
    timeouts: { acquireMs: 5000, statementMs: 15_000, lockMs: 5000, idleInTransactionMs: 60_000 },
  });
  cleanups.push(() => db.close());
  return { database, db };
}

// Kysely's migration lock on PostgreSQL: a session-level advisory lock with this key.
const MIGRATION_LOCK = '3853314791062309107';

test('an up-to-date database is not migrated again: no wait for the migration lock that another process holds', {
  skip: dialect !== 'postgres' && 'the migration lock is an advisory lock of PostgreSQL',
}, async () => {
  const { database, db } = await newDatabase();
  assert.ok((await migrate(db)).applied.length > 0, 'a new database is migrated');

  // Another process holds the lock (as every starting process and one-shot command does in turn).
  const holder = new pg.Client({ connectionString: database.url });
  await holder.connect();
  cleanups.push(() => holder.end());
  await holder.query(`select pg_advisory_lock(${MIGRATION_LOCK})`);

  const started = Date.now();
  const outcome = await Promise.race([migrate(db), new Promise((resolve) => setTimeout(() => resolve('waited'), 3000))]);
  assert.deepEqual(outcome, { applied: [] });
  assert.ok(Date.now() - started < 3000);

  // With migrations pending (a new database), it takes the locked path and waits for the holder.
  await holder.query(`select pg_advisory_unlock(${MIGRATION_LOCK})`);
  const fresh = await createTestDatabase();
  cleanups.push(() => fresh.drop());
  const other = openDatabase(fresh.url);
  cleanups.push(() => other.close());
  const holderOfFresh = new pg.Client({ connectionString: fresh.url });
  await holderOfFresh.connect();
  cleanups.push(() => holderOfFresh.end());
  await holderOfFresh.query(`select pg_advisory_lock(${MIGRATION_LOCK})`);
  let finished = false;
  const pending = migrate(other).then((result) => {
    finished = true;
    return result;
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(finished, false, 'waits for the lock while migrations are pending');
  await holderOfFresh.query(`select pg_advisory_unlock(${MIGRATION_LOCK})`);
  assert.ok((await pending).applied.length > 0);
});

test('PostgreSQL: a table that a migration filled is vacuumed once it has committed, so that its index alone answers', {
  skip: dialect !== 'postgres' && 'the visibility map is PostgreSQL’s',
}, async () => {
  const { database, db } = await newDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  cleanups.push(() => client.end());
  const vacuumed = async (table: string) =>
    (await client.query('select last_vacuum from pg_stat_user_tables where relname = $1', [table])).rows[0]?.last_vacuum ?? null;
  assert.ok((await migrate(db)).applied.includes('0042_enrolments_by_holder_terms'));
  // By the migration (autovacuum would set last_autovacuum, minutes later), and no other table.
  const at = await vacuumed('enrolment_terms');
  assert.ok(at !== null && !Number.isNaN(new Date(at).getTime()), `enrolment_terms vacuumed: ${at}`);
  assert.equal(await vacuumed('certificate_terms'), null);
});
