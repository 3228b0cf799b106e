import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../support/cli.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { runAcademy } from '../support/process.ts';

describe('academy webhooks', () => {
  let database: TestDatabase;

  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.drop());

  function academy(args: string[], env: Record<string, string> = {}) {
    return runCli(args, { DATABASE_URL: database.url, ACADEMY_DATA_DIR: database.dataDir, ...env });
  }

  const allowPrivate = { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true' };

  test('create prints the secret once; list, deliveries and delete work with --json', async () => {
    const created = await academy(
      ['--json', 'webhooks', 'create', '--url', 'http://127.0.0.1:9/hook', '--events', 'enrollment.created, certificate.issued'],
      allowPrivate,
    );
    assert.equal(created.code, 0, created.stderr);
    const endpoint = JSON.parse(created.stdout);
    assert.match(endpoint.secret, /^whsec_[A-Za-z0-9+/]{40,}=*$/);
    assert.equal(endpoint.url, 'http://127.0.0.1:9/hook');
    assert.deepEqual(endpoint.events, ['enrollment.created', 'certificate.issued']);
    assert.equal(endpoint.enabled, true);

    const text = await academy(['webhooks', 'create', '--url', 'https://93.184.215.14/hooks']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^whsec_\S+\n\nWebhook endpoint 2 created for https:\/\/93\.184\.215\.14\/hooks \(events: all\)/);

    const listed = await academy(['--json', 'webhooks', 'list']);
    assert.equal(listed.code, 0, listed.stderr);
    const list = JSON.parse(listed.stdout);
    assert.deepEqual(
      list.map((e: { id: number; events: string[] | null }) => [e.id, e.events]),
      [
        [1, ['enrollment.created', 'certificate.issued']],
        [2, null],
      ],
    );
    assert.ok(!listed.stdout.includes('whsec_'), 'secrets are never listed');
    // Every admin resource lists: `admin webhooks list` is the same list.
    const adminListed = await academy(['--json', 'admin', 'webhooks', 'list']);
    assert.equal(adminListed.code, 0, adminListed.stderr);
    assert.deepEqual(JSON.parse(adminListed.stdout), list);

    const deliveries = await academy(['--json', 'webhooks', 'deliveries', '1']);
    assert.equal(deliveries.code, 0, deliveries.stderr);
    assert.deepEqual(JSON.parse(deliveries.stdout), []);

    const deleted = await academy(['--json', 'webhooks', 'delete', '1']);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(JSON.parse(deleted.stdout).id, 1);
    const gone = await academy(['webhooks', 'deliveries', '1']);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /Nothing has that id/);
  });

  test('the real process refuses a bad URL on stderr with exit code 1', async () => {
    const refused = await runAcademy(['webhooks', 'create', '--url', 'not a url'], {
      DATABASE_URL: database.url,
      ACADEMY_DATA_DIR: database.dataDir,
    });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /url/i);
  });

  test('bad input is refused with a clear message and a non-zero exit code', async () => {
    const unknown = await academy(
      ['webhooks', 'create', '--url', 'https://93.184.215.14/', '--events', 'enrollment.created,nope'],
      allowPrivate,
    );
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /Unknown event type\(s\): nope\. Known types: enrollment\.created/);
    assert.equal(unknown.stdout, '');

    const loopback = await academy(['webhooks', 'create', '--url', 'http://127.0.0.1/hook']);
    assert.equal(loopback.code, 1);
    assert.match(loopback.stderr, /127\.0\.0\.1 is a loopback address; only public addresses are allowed/);

    const badId = await academy(['webhooks', 'delete', 'x1']);
    assert.equal(badId.code, 1);
    assert.match(badId.stderr, /"x1" is not an id/);
  });
});
