import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { inspect } from 'node:util';
import { ConfigError, loadConfig, loadDotenv, publicUrlWarning } from '../../src/config.ts';
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
      ACADEMY_SECRET_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
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

  test('HTTP server limits, public URL and metrics exposure: defaults and valid values', () => {
    const defaults = loadConfig({});
    assert.equal(defaults.requestTimeoutMs, 30_000);
    assert.equal(defaults.headersTimeoutMs, 10_000);
    assert.equal(defaults.keepAliveTimeoutMs, 5000);
    assert.equal(defaults.shutdownGraceMs, 10_000);
    assert.equal(defaults.publicUrl, null);
    assert.equal(defaults.metricsPublic, false);
    assert.equal(defaults.gcMetrics, false);

    const set = loadConfig({
      ACADEMY_REQUEST_TIMEOUT_MS: '60000',
      ACADEMY_HEADERS_TIMEOUT_MS: '60000',
      ACADEMY_KEEP_ALIVE_TIMEOUT_MS: '250',
      ACADEMY_SHUTDOWN_GRACE_SECONDS: '0',
      ACADEMY_PUBLIC_URL: 'https://academy.example.org',
      ACADEMY_METRICS_PUBLIC: 'true',
      ACADEMY_GC_METRICS: 'true',
    });
    assert.equal(set.requestTimeoutMs, 60_000);
    assert.equal(set.headersTimeoutMs, 60_000);
    assert.equal(set.keepAliveTimeoutMs, 250);
    assert.equal(set.shutdownGraceMs, 0);
    assert.equal(set.publicUrl, 'https://academy.example.org');
    assert.equal(set.metricsPublic, true);
    assert.equal(set.gcMetrics, true);
    // A request timeout below the default header timeout brings the latter down with it.
    assert.equal(loadConfig({ ACADEMY_REQUEST_TIMEOUT_MS: '500' }).headersTimeoutMs, 500);
    // A path prefix is kept (without its trailing slash): links are the public URL followed by the path.
    assert.equal(loadConfig({ ACADEMY_PUBLIC_URL: 'http://example.org:8080/academy/' }).publicUrl, 'http://example.org:8080/academy');
    assert.equal(loadConfig({ ACADEMY_PUBLIC_URL: 'https://academy.example.org/' }).publicUrl, 'https://academy.example.org');
  });

  test('the invitation acceptance page: ACADEMY_INVITE_URL, else this server’s page, and how long links work', () => {
    assert.equal(loadConfig({}).inviteUrl, 'http://127.0.0.1:3000/invitations/accept');
    assert.equal(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).inviteUrl, 'http://localhost:8080/invitations/accept');
    assert.equal(
      loadConfig({ ACADEMY_PUBLIC_URL: 'https://academy.example.org/base/' }).inviteUrl,
      'https://academy.example.org/base/invitations/accept',
    );
    assert.equal(
      loadConfig({ ACADEMY_PUBLIC_URL: 'https://academy.example.org', ACADEMY_INVITE_URL: 'https://admin.example.org/accept?from=mail' })
        .inviteUrl,
      'https://admin.example.org/accept?from=mail',
    );
    assert.equal(loadConfig({}).inviteTtlHours, 168);
    assert.equal(loadConfig({ ACADEMY_INVITE_TTL_HOURS: '48' }).inviteTtlHours, 48);
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
      ['ACADEMY_INVITE_URL', 'ftp://admin.example.org'],
      ['ACADEMY_INVITE_URL', 'https://admin.example.org/accept?token=x'],
      ['ACADEMY_INVITE_URL', 'https://admin.example.org/accept#top'],
      ['ACADEMY_INVITE_TTL_HOURS', '0'],
      ['ACADEMY_ALLOW_PRIVATE_TARGETS', 'maybe'],
      ['ACADEMY_TRUST_PROXY', 'everyone!'],
      ['ACADEMY_TRUST_PROXY', '10.0.0.0/33'],
      ['ACADEMY_TRUST_PROXY', '10.0.0.1,'],
      ['ACADEMY_TRUST_PROXY', '10.0.0.1, 300.1.1.1'],
      ['HOST', 'not a host!'],
      ['HOST', 'http://0.0.0.0'],
      ['LOG_LEVEL', 'loud'],
      ['ACADEMY_MAIL_FROM', 'not an address'],
      ['ACADEMY_MAIL_FROM', 'Academy <office@example.org'],
      ['ACADEMY_MAIL_FROM', 'Academy\r\nBcc: x@example.org <office@example.org>'],
      ['ACADEMY_REQUEST_TIMEOUT_MS', '0'],
      ['ACADEMY_REQUEST_TIMEOUT_MS', '30s'],
      ['ACADEMY_HEADERS_TIMEOUT_MS', '40000'],
      ['ACADEMY_HEADERS_TIMEOUT_MS', '-5'],
      ['ACADEMY_KEEP_ALIVE_TIMEOUT_MS', '0'],
      ['ACADEMY_SHUTDOWN_GRACE_SECONDS', '1.5'],
      ['ACADEMY_SHUTDOWN_GRACE_SECONDS', '3601'],
      ['ACADEMY_PUBLIC_URL', 'academy.example.org'],
      ['ACADEMY_PUBLIC_URL', 'ftp://academy.example.org'],
      ['ACADEMY_PUBLIC_URL', 'https://academy.example.org/?x=1'],
      ['ACADEMY_PUBLIC_URL', 'https://academy.example.org/#top'],
      ['ACADEMY_PUBLIC_URL', 'https://user:secret@academy.example.org'],
      ['ACADEMY_METRICS_PUBLIC', 'maybe'],
      ['ACADEMY_GC_METRICS', 'maybe'],
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

  test('storage: local by default; s3 needs a valid bucket, and both keys or neither; each refusal names its variable', () => {
    assert.deepEqual(loadConfig({}).storage, { kind: 'local' });
    const s3 = loadConfig({
      ACADEMY_STORAGE: 's3',
      ACADEMY_S3_BUCKET: 'academy-files',
      ACADEMY_S3_ENDPOINT: 'http://127.0.0.1:9000',
    }).storage;
    assert.deepEqual(s3, {
      kind: 's3',
      bucket: 'academy-files',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      accessKeyId: null,
      secretAccessKey: null,
      forcePathStyle: true,
      prefix: '',
    });
    const bad: [Record<string, string>, string][] = [
      [{ ACADEMY_STORAGE: 'ftp' }, 'ACADEMY_STORAGE'],
      [{ ACADEMY_STORAGE: 's3' }, 'ACADEMY_S3_BUCKET'],
      [{ ACADEMY_STORAGE: 's3', ACADEMY_S3_BUCKET: 'Bad_Bucket' }, 'ACADEMY_S3_BUCKET'],
      [{ ACADEMY_STORAGE: 's3', ACADEMY_S3_BUCKET: 'ok-bucket', ACADEMY_S3_ENDPOINT: 'minio:9000' }, 'ACADEMY_S3_ENDPOINT'],
      [{ ACADEMY_STORAGE: 's3', ACADEMY_S3_BUCKET: 'ok-bucket', ACADEMY_S3_ACCESS_KEY_ID: 'key' }, 'ACADEMY_S3_SECRET_ACCESS_KEY'],
      [{ ACADEMY_STORAGE: 's3', ACADEMY_S3_BUCKET: 'ok-bucket', ACADEMY_S3_PREFIX: 'Has Spaces' }, 'ACADEMY_S3_PREFIX'],
      [{ ACADEMY_STORAGE: 's3', ACADEMY_S3_BUCKET: 'ok-bucket', ACADEMY_S3_FORCE_PATH_STYLE: 'sometimes' }, 'ACADEMY_S3_FORCE_PATH_STYLE'],
    ];
    for (const [env, variable] of bad) {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && error.variable === variable,
        JSON.stringify(env),
      );
    }
  });

  test('single sign-on: off without ACADEMY_OIDC_*; the three together, named "single sign-on" unless ACADEMY_OIDC_NAME says otherwise', () => {
    const oidc = {
      ACADEMY_OIDC_ISSUER: 'https://id.example.org/realms/staff',
      ACADEMY_OIDC_CLIENT_ID: 'academy',
      ACADEMY_OIDC_CLIENT_SECRET: 's3cr3t-value',
    };
    assert.equal(loadConfig({}).oidc, null);
    const config = loadConfig(oidc);
    assert.equal(config.oidc?.issuer, 'https://id.example.org/realms/staff');
    assert.equal(config.oidc?.clientId, 'academy');
    assert.equal(config.oidc?.clientSecret.reveal(), 's3cr3t-value');
    assert.equal(config.oidc?.name, 'single sign-on');
    assert.equal(loadConfig({ ...oidc, ACADEMY_OIDC_NAME: ' Northwind ID ' }).oidc?.name, 'Northwind ID');
    // The client secret never shows when the configuration is printed or logged.
    assert.ok(!JSON.stringify(config).includes('s3cr3t-value'));
    assert.ok(!inspect(config, { depth: null }).includes('s3cr3t-value'));
    for (const local of ['http://localhost:8080', 'http://127.0.0.1:9000/realm', 'http://[::1]:9000']) {
      assert.equal(loadConfig({ ...oidc, ACADEMY_OIDC_ISSUER: local }).oidc?.issuer, local, 'http on this machine');
    }

    const refusals: [Record<string, string>, string, RegExp][] = [
      [{ ...oidc, ACADEMY_OIDC_ISSUER: '' }, 'ACADEMY_OIDC_ISSUER', /single sign-on needs/],
      [{ ...oidc, ACADEMY_OIDC_CLIENT_ID: ' ' }, 'ACADEMY_OIDC_CLIENT_ID', /single sign-on needs/],
      [
        { ACADEMY_OIDC_ISSUER: oidc.ACADEMY_OIDC_ISSUER, ACADEMY_OIDC_CLIENT_ID: 'academy' },
        'ACADEMY_OIDC_CLIENT_SECRET',
        /single sign-on needs/,
      ],
      [{ ACADEMY_OIDC_NAME: 'Northwind ID' }, 'ACADEMY_OIDC_NAME', /no effect without/],
      [{ ...oidc, ACADEMY_OIDC_ISSUER: 'http://id.example.org' }, 'ACADEMY_OIDC_ISSUER', /must be an https URL/],
      [
        { ...oidc, ACADEMY_OIDC_ISSUER: 'https://id.example.org/?tenant=1' },
        'ACADEMY_OIDC_ISSUER',
        /without credentials, query or fragment/,
      ],
      [{ ...oidc, ACADEMY_OIDC_ISSUER: 'id.example.org' }, 'ACADEMY_OIDC_ISSUER', /must be a URL/],
      [{ ...oidc, ACADEMY_OIDC_NAME: 'x'.repeat(61) }, 'ACADEMY_OIDC_NAME', /at most 60 characters/],
    ];
    for (const [env, variable, message] of refusals) {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError, String(error));
          assert.equal(error.variable, variable, JSON.stringify(env));
          assert.match(error.message, message);
          return true;
        },
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

  test('start warns of links nobody else can open: beyond loopback or behind a proxy without ACADEMY_PUBLIC_URL', () => {
    assert.equal(publicUrlWarning(loadConfig({})), null, 'loopback only: a developer machine');
    assert.equal(publicUrlWarning(loadConfig({ HOST: '0.0.0.0', ACADEMY_PUBLIC_URL: 'https://academy.example.org' })), null);
    assert.equal(
      publicUrlWarning(loadConfig({ HOST: '0.0.0.0', PORT: '8080' })),
      'ACADEMY_PUBLIC_URL is not set, and the server listens on 0.0.0.0:8080: links in invitation and password-reset emails, sign-in links and passkeys will name http://localhost:8080, which other computers cannot open. Set ACADEMY_PUBLIC_URL to the address people use, e.g. https://academy.example.org.',
    );
    assert.match(
      publicUrlWarning(loadConfig({ ACADEMY_TRUST_PROXY: 'true' })) ?? '',
      /trusts a proxy \(ACADEMY_TRUST_PROXY\).*http:\/\/127\.0\.0\.1:3000/,
    );
  });
});
