import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { ConfigError, loadConfig, loadDotenv } from '../../src/config.ts';
import { runAcademy } from '../support/process.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'academy-config-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('configuration', () => {
  test('defaults', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.dataDir, path.resolve('data'));
    assert.equal(config.databaseUrl, `sqlite:${path.resolve('data', 'academy.db')}`);
    assert.equal(config.redisUrl, null);
    assert.equal(config.redisPrefix, 'academy');
    assert.equal(config.maxPageSize, 100);
    assert.equal(config.tokenTtlDays, 365);
    assert.equal(config.smtpUrl, null);
    assert.equal(config.allowPrivateTargets, false);
    assert.equal(config.trustProxy, false);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.metricsPort, null);
    assert.equal(config.versionsFile, null);
  });

  test('valid values are read', () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://user:secret@db.example:5432/academy',
      REDIS_URL: 'redis://cache:6379/2',
      ACADEMY_REDIS_PREFIX: 'academy-staging',
      ACADEMY_DATA_DIR: dir,
      ACADEMY_MAX_PAGE_SIZE: '250',
      ACADEMY_TOKEN_TTL_DAYS: '30',
      SMTP_URL: 'smtps://mail.example:465',
      ACADEMY_ALLOW_PRIVATE_TARGETS: 'yes',
      ACADEMY_TRUST_PROXY: '10.0.0.0/8, 192.168.1.1',
    });
    assert.equal(config.port, 0);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.databaseUrl, 'postgres://user:secret@db.example:5432/academy');
    assert.equal(config.redisUrl, 'redis://cache:6379/2');
    assert.equal(config.redisPrefix, 'academy-staging');
    assert.equal(config.dataDir, dir);
    assert.equal(config.maxPageSize, 250);
    assert.equal(config.tokenTtlDays, 30);
    assert.equal(config.smtpUrl, 'smtps://mail.example:465');
    assert.equal(config.allowPrivateTargets, true);
    assert.equal(config.trustProxy, '10.0.0.0/8, 192.168.1.1');
    assert.equal(loadConfig({ ACADEMY_ALLOW_PRIVATE_TARGETS: 'false' }).allowPrivateTargets, false);
    assert.equal(loadConfig({ DATABASE_URL: 'sqlite:/tmp/x.db' }).databaseUrl, 'sqlite:/tmp/x.db');
  });

  test('ACADEMY_MAIL_FROM takes a plain or a named address', () => {
    assert.equal(loadConfig({}).mailFrom, 'Academy <no-reply@academy.invalid>');
    assert.equal(loadConfig({ ACADEMY_MAIL_FROM: 'office@example.org' }).mailFrom, 'office@example.org');
    assert.equal(loadConfig({ ACADEMY_MAIL_FROM: 'Northwind <office@example.org>' }).mailFrom, 'Northwind <office@example.org>');
  });

  test('each bad value stops with a ConfigError naming the variable', () => {
    const bad: [string, string][] = [
      ['PORT', 'abc'],
      ['PORT', '70000'],
      ['PORT', '-1'],
      ['DATABASE_URL', 'mysql://x'],
      ['DATABASE_URL', 'sqlite:'],
      ['REDIS_URL', 'http://x'],
      ['REDIS_URL', 'not a url'],
      ['ACADEMY_REDIS_PREFIX', 'has spaces'],
      ['ACADEMY_MAX_PAGE_SIZE', '0'],
      ['ACADEMY_MAX_PAGE_SIZE', '1.5'],
      ['ACADEMY_TOKEN_TTL_DAYS', '0'],
      ['SMTP_URL', 'ftp://mail'],
      ['ACADEMY_ALLOW_PRIVATE_TARGETS', 'maybe'],
      ['ACADEMY_TRUST_PROXY', 'everyone!'],
      ['LOG_LEVEL', 'loud'],
      ['ACADEMY_MAIL_FROM', 'not an address'],
      ['ACADEMY_MAIL_FROM', 'Academy <office@example.org'],
      ['ACADEMY_MAIL_FROM', 'Academy\r\nBcc: x@example.org <office@example.org>'],
    ];
    for (const [variable, value] of bad) {
      assert.throws(
        () => loadConfig({ [variable]: value }),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError, `${variable}=${value} throws a ConfigError`);
          assert.equal(error.variable, variable);
          assert.match(error.message, new RegExp(`\\b${variable}\\b`));
          return true;
        },
        `${variable}=${value}`,
      );
    }
  });

  test('.env fills in variables that the environment does not set, and never overrides them', () => {
    const file = path.join(dir, '.env');
    writeFileSync(file, 'ACADEMY_TEST_ONLY_A=from-file\nACADEMY_TEST_ONLY_B=from-file\n');
    process.env.ACADEMY_TEST_ONLY_B = 'from-environment';
    try {
      loadDotenv(file);
      assert.equal(process.env.ACADEMY_TEST_ONLY_A, 'from-file');
      assert.equal(process.env.ACADEMY_TEST_ONLY_B, 'from-environment');
    } finally {
      delete process.env.ACADEMY_TEST_ONLY_A;
      delete process.env.ACADEMY_TEST_ONLY_B;
    }
  });

  test('the real command refuses to start with a bad value and names it on stderr', async () => {
    const env = { DATABASE_URL: `sqlite:${path.join(dir, 'cli.db')}`, ACADEMY_DATA_DIR: dir };
    const bad = await runAcademy(['migrate'], { ...env, PORT: 'abc' });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /PORT/);
    assert.equal(bad.stdout, '');
    const good = await runAcademy(['migrate'], env);
    assert.equal(good.code, 0, good.stderr);
  });
});
