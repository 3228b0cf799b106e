import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { isDatabaseUnavailable } from '../../src/db/errors.ts';
import { type ChangeFeed, createReadCache } from '../../src/platform/changes.ts';

describe('database bounds', () => {
  test('timeouts come from ACADEMY_DB_*_TIMEOUT_MS, with defaults, and bad values name their variable', () => {
    assert.deepEqual(loadConfig({}).dbTimeouts, { acquireMs: 5000, statementMs: 15_000, lockMs: 5000, idleInTransactionMs: 60_000 });
    assert.deepEqual(
      loadConfig({
        ACADEMY_DB_ACQUIRE_TIMEOUT_MS: '1000',
        ACADEMY_DB_STATEMENT_TIMEOUT_MS: '30000',
        ACADEMY_DB_LOCK_TIMEOUT_MS: '2000',
        ACADEMY_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '120000',
      }).dbTimeouts,
      { acquireMs: 1000, statementMs: 30_000, lockMs: 2000, idleInTransactionMs: 120_000 },
    );
    for (const [variable, value] of [
      ['ACADEMY_DB_ACQUIRE_TIMEOUT_MS', '0'],
      ['ACADEMY_DB_STATEMENT_TIMEOUT_MS', '15s'],
      ['ACADEMY_DB_LOCK_TIMEOUT_MS', '-1'],
      ['ACADEMY_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS', '999999999'],
    ]) {
      assert.throws(
        () => loadConfig({ [variable as string]: value }),
        (error: unknown) => error instanceof ConfigError && error.variable === variable,
        `${variable}=${value}`,
      );
    }
  });

  test('isDatabaseUnavailable tells outages and timeouts from other database errors', () => {
    const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    const unavailable = [
      coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      coded('ECONNRESET'),
      new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], 'connect failed'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout', { cause: new Error('timeout expired') }),
      new Error('timeout exceeded when trying to connect'),
      new Error('Query read timeout'),
      coded('57014', 'canceling statement due to statement timeout'),
      coded('55P03', 'canceling statement due to lock timeout'),
      coded('40P01', 'deadlock detected'),
      coded('40001', 'could not serialize access due to concurrent update'),
      coded('57P01', 'terminating connection due to administrator command'),
      coded('08006'),
      coded('53300', 'sorry, too many clients already'),
      Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 }),
      Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 517 }),
    ];
    const other = [
      coded('23505', 'duplicate key value violates unique constraint'),
      coded('42P01', 'relation "x" does not exist'),
      Object.assign(new Error('UNIQUE constraint failed'), { code: 'ERR_SQLITE_ERROR', errcode: 19 }),
      new Error('The organization row is missing; run the migrations.'),
      coded('ENOENT'),
      'ECONNREFUSED',
      null,
    ];
    for (const error of unavailable) assert.equal(isDatabaseUnavailable(error), true, String(error));
    for (const error of other) assert.equal(isDatabaseUnavailable(error), false, String(error));
  });

  test('a cached value is loaded again after its maximum age, however quiet the change feed', async () => {
    const quiet: ChangeFeed = { stamp: () => 1, announce: async () => {}, close: async () => {} };
    const cache = createReadCache<string, number>(quiet, { maxAgeMs: 50 });
    let loads = 0;
    const load = async () => ++loads;
    assert.equal(await cache.get('a', load), 1);
    assert.equal(cache.get('a', load), 1, 'a hit is answered at once');
    await sleep(80);
    assert.equal(await cache.get('a', load), 2);
  });
});
