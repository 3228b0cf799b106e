import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, type TestContext, test } from 'node:test';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { assemble } from '../../src/assembly/modules.ts';
import { loadConfig } from '../../src/config.ts';
import { systemClock } from '../../src/platform/clock.ts';
import { operatorContext } from '../../src/platform/context.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { runCli } from '../support/cli.ts';
import { secretKeyEnv } from '../support/env.ts';
import { eventually } from '../support/eventually.ts';
import { createTestAssembly, createTestPlatform } from '../support/platform.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

/** The operator's context, as the `academy` command passes it. */
const ops = operatorContext({ clock: systemClock, logger: pino({ level: 'silent' }) });
const newKey = () => randomBytes(32).toString('base64');
const SEALED = /^enc:v1:[0-9a-f]{8}:[A-Za-z0-9_-]+$/;
const AUTH_HEADER = 'Bearer crm-secret-token-0123456789';

async function storedSecrets(platform: Platform) {
  const db = platform.database.db;
  return {
    webhooks: (await db.selectFrom('webhook_endpoints').select(['id', 'secret']).orderBy('id').execute()).map((row) => row.secret),
    integrations: (await db.selectFrom('integrations').select(['id', 'auth_header']).orderBy('id').execute()).map((row) => row.auth_header),
  };
}

/** Another platform (another process's) over the same database, with its own environment on top. */
function sameDatabase(t: TestContext, platform: Platform, env: Record<string, string>): Platform {
  const { platform: other } = assemble(
    loadConfig({
      DATABASE_URL: platform.database.url,
      ACADEMY_DATA_DIR: platform.config.dataDir,
      ACADEMY_ALLOW_PRIVATE_TARGETS: 'true',
      ...secretKeyEnv,
      ...env,
    }),
    { logger: pino({ level: 'silent' }) },
  );
  t.after(() => other.close());
  return other;
}

/** Runs a worker until an event reaches the receiver at `at`; returns the request as received. */
async function deliverOne(t: TestContext, platform: Platform, receiver: Receiver, at = '/hook') {
  const worker = platform.createWorker({ pollMs: 50 });
  await worker.start();
  t.after(() => worker.stop(2000));
  const event = await platform.database.db
    .transaction()
    .execute((trx) => platform.outbox.emit(trx, 'enrollment.created', { enrolment_id: 7 }));
  const request = await eventually(() => receiver.requests.find((r) => r.path === at), { what: `a request to ${at}` });
  return { event, request };
}

function academy(platform: Platform, args: string[], env: Record<string, string> = {}) {
  return runCli(args, { DATABASE_URL: platform.database.url, ACADEMY_DATA_DIR: platform.config.dataDir, ...env });
}

describe('secrets at rest', () => {
  test('a webhook signing secret is stored encrypted, and deliveries are signed with the secret itself', async (t) => {
    const { platform, services } = await createTestAssembly({ env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true' } });
    const receiver = await startReceiver();
    const { secret } = await services.webhooks.create(ops, { url: `${receiver.url}/hook` });
    const [stored] = (await storedSecrets(platform)).webhooks;
    assert.notEqual(stored, secret);
    assert.ok(!stored?.includes(secret.slice('whsec_'.length)), 'no part of the key is stored as it is');
    assert.match(stored ?? '', SEALED);

    const { event, request } = await deliverOne(t, platform, receiver);
    const verified = new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as { id: string };
    assert.equal(verified.id, event.id);
  });

  test('an integration credential is stored encrypted, still masked when listed, and sent as it was given', async (t) => {
    const { platform, services } = await createTestAssembly({ env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true' } });
    const receiver = await startReceiver();
    const integrations = services.integrations;
    const created = await integrations.create(ops, { key: 'crm', name: 'CRM', url: `${receiver.url}/in`, auth_header: AUTH_HEADER });
    assert.equal(created.auth_header, 'Bearer ****6789');
    const [stored] = (await storedSecrets(platform)).integrations;
    assert.notEqual(stored, AUTH_HEADER);
    assert.ok(!stored?.includes('crm-secret-token'), 'no part of the credential is stored as it is');
    assert.match(stored ?? '', SEALED);
    assert.deepEqual(
      (await integrations.listIntegrations(ops)).map((i) => i.auth_header),
      ['Bearer ****6789'],
    );

    const { request } = await deliverOne(t, platform, receiver, '/in');
    assert.equal(request.headers.authorization, AUTH_HEADER);
  });

  test('secrets stored in plain text by an earlier version are encrypted by `academy migrate`, and still work', async (t) => {
    const platform = await createTestPlatform({ env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true' } });
    const receiver = await startReceiver();
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const now = new Date().toISOString();
    const db = platform.database.db;
    await db
      .insertInto('webhook_endpoints')
      .values({ url: `${receiver.url}/hook`, secret, events: null, enabled: true, disabled_reason: null, created_at: now, updated_at: now })
      .execute();
    await db
      .insertInto('integrations')
      .values({
        key: 'crm',
        name: 'CRM',
        url: `${receiver.url}/in`,
        events: null,
        auth_header: AUTH_HEADER,
        enabled: true,
        created_at: now,
        updated_at: now,
      })
      .execute();

    const migrated = await academy(platform, ['migrate']);
    assert.equal(migrated.code, 0, migrated.stderr);
    const stored = await storedSecrets(platform);
    assert.notEqual(stored.webhooks[0], secret);
    assert.notEqual(stored.integrations[0], AUTH_HEADER);
    assert.match(stored.webhooks[0] ?? '', SEALED);
    assert.match(stored.integrations[0] ?? '', SEALED);
    const again = await academy(platform, ['migrate']);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(await storedSecrets(platform), stored, 'a second run leaves encrypted values alone');

    const { event, request } = await deliverOne(t, platform, receiver);
    const verified = new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as { id: string };
    assert.equal(verified.id, event.id);
    const sent = await eventually(() => receiver.requests.find((r) => r.path === '/in'), { what: 'the integration message' });
    assert.equal(sent.headers.authorization, AUTH_HEADER);
  });

  test('`academy secrets rotate` re-encrypts every secret under the new key; the old key opens none of them', async (t) => {
    const oldKey = newKey();
    const { platform, services } = await createTestAssembly({ env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true', ACADEMY_SECRET_KEY: oldKey } });
    const receiver = await startReceiver();
    const { secret } = await services.webhooks.create(ops, { url: `${receiver.url}/hook` });
    await services.integrations.create(ops, { key: 'crm', name: 'CRM', url: `${receiver.url}/in`, auth_header: AUTH_HEADER });
    const before = await storedSecrets(platform);
    const oldKeyFile = path.join(mkdtempSync(path.join(tmpdir(), 'academy-old-key-')), 'old.key');
    writeFileSync(oldKeyFile, `${oldKey}\n`, { mode: 0o600 });

    const key = newKey();
    const rotated = await academy(platform, ['--json', 'secrets', 'rotate', '--from-key-file', oldKeyFile], { ACADEMY_SECRET_KEY: key });
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.deepEqual(JSON.parse(rotated.stdout), { key_id: JSON.parse(rotated.stdout).key_id, reencrypted: 2, encrypted: 0, unchanged: 0 });
    const after = await storedSecrets(platform);
    for (const [i, value] of [...after.webhooks, ...after.integrations].entries()) {
      assert.match(value ?? '', SEALED);
      assert.notEqual(value, [...before.webhooks, ...before.integrations][i]);
      assert.equal(value?.split(':')[2], JSON.parse(rotated.stdout).key_id);
    }

    const withOld = await academy(platform, ['admin', 'integrations', 'list'], { ACADEMY_SECRET_KEY: oldKey });
    assert.equal(withOld.code, 1);
    assert.match(withOld.stderr, /encrypted under secret key [0-9a-f]{8}, but the configured key is [0-9a-f]{8}/);
    const withNew = await academy(platform, ['--json', 'admin', 'integrations', 'list'], { ACADEMY_SECRET_KEY: key });
    assert.equal(withNew.code, 0, withNew.stderr);
    assert.equal(JSON.parse(withNew.stdout)[0].auth_header, 'Bearer ****6789');

    const rerun = await academy(platform, ['--json', 'secrets', 'rotate', '--from-key-file', oldKeyFile], { ACADEMY_SECRET_KEY: key });
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.deepEqual(JSON.parse(rerun.stdout), { key_id: JSON.parse(rotated.stdout).key_id, reencrypted: 0, encrypted: 0, unchanged: 2 });
    assert.deepEqual(await storedSecrets(platform), after, 'a second run changes nothing');

    const { event, request } = await deliverOne(t, sameDatabase(t, platform, { ACADEMY_SECRET_KEY: key }), receiver);
    const verified = new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as { id: string };
    assert.equal(verified.id, event.id);
  });

  test('a rotation from a key that did not encrypt the secrets changes nothing and says which key did', async () => {
    const { platform, services } = await createTestAssembly({
      env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true', ACADEMY_SECRET_KEY: newKey() },
    });
    await services.webhooks.create(ops, { url: 'http://127.0.0.1:9/hook' });
    const before = await storedSecrets(platform);
    const wrongFile = path.join(mkdtempSync(path.join(tmpdir(), 'academy-wrong-key-')), 'wrong.key');
    writeFileSync(wrongFile, newKey(), { mode: 0o600 });
    const rotated = await academy(platform, ['secrets', 'rotate', '--from-key-file', wrongFile], { ACADEMY_SECRET_KEY: newKey() });
    assert.equal(rotated.code, 1);
    assert.match(rotated.stderr, /encrypted under secret key [0-9a-f]{8}/);
    assert.deepEqual(await storedSecrets(platform), before);
  });

  test('a process with the wrong key sends nothing and records why, never signing with a wrong secret', async (t) => {
    const { platform, services } = await createTestAssembly({
      env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true', ACADEMY_SECRET_KEY: newKey() },
    });
    const receiver = await startReceiver();
    await services.webhooks.create(ops, { url: `${receiver.url}/hook` });
    const wrong = sameDatabase(t, platform, { ACADEMY_SECRET_KEY: newKey() });
    const worker = wrong.createWorker({ pollMs: 50 });
    await worker.start();
    t.after(() => worker.stop(2000));
    await wrong.database.db.transaction().execute((trx) => wrong.outbox.emit(trx, 'enrollment.created', { enrolment_id: 7 }));
    const job = await eventually(
      async () =>
        (await wrong.database.db
          .selectFrom('jobs')
          .selectAll()
          .where('name', '=', 'webhooks.deliver')
          .where('last_error', 'is not', null)
          .executeTakeFirst()) ?? null,
      { what: 'the delivery attempt to fail' },
    );
    assert.match(
      job.last_error ?? '',
      /signing secret of webhook endpoint \d+ was encrypted under secret key [0-9a-f]{8}, but the configured key is [0-9a-f]{8}/,
    );
    assert.equal(receiver.requests.length, 0);
  });
});
