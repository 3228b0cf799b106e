import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Platform } from '../../src/platform/platform.ts';
import { jsonError, runCli } from '../support/cli.ts';
import { type Fixtures, fixtures } from '../support/fixtures.ts';
import { createTestPlatform } from '../support/platform.ts';
import { runAcademy } from '../support/process.ts';

describe('academy admin certificates', () => {
  let platform: Platform;
  let make: Fixtures;
  const academy = (args: string[]) =>
    runCli(args, { DATABASE_URL: platform.config.databaseUrl, ACADEMY_DATA_DIR: platform.config.dataDir });

  before(async () => {
    platform = await createTestPlatform();
    make = fixtures(platform);
  });

  test('the real process refuses an enrolment that does not exist, on stderr with exit code 1', async () => {
    const refused = await runAcademy(['admin', 'certificates', 'issue', '--data', '{"enrolment_id":999999}'], {
      DATABASE_URL: platform.config.databaseUrl,
      ACADEMY_DATA_DIR: platform.config.dataDir,
    });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /enrolment_id/);
  });

  test('issue prints the certificate and its verification path; revoke and list show the change', async () => {
    const enrolment = await make.enrolment({ completion_outcome: 'passed' });
    const issued = await academy(['admin', 'certificates', 'issue', '--data', JSON.stringify({ enrolment_id: enrolment.id })]);
    assert.equal(issued.code, 0, issued.stderr);
    const [first, second] = issued.stdout.split('\n');
    assert.match(first as string, /^Certificate CERT-\d{4}-\d{6} issued \(id \d+\)\.$/);
    assert.match(second as string, /^Public verification: \/api\/v1\/certificates\/verify\/[A-Za-z0-9_-]{32}$/);
    const certificate = JSON.parse(issued.stdout.slice(issued.stdout.indexOf('{')));
    assert.equal(certificate.enrolment_id, enrolment.id);

    const revoked = await academy([
      '--json',
      'admin',
      'certificates',
      'revoke',
      String(certificate.id),
      '--data',
      '{"reason":"Issued in error"}',
    ]);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal(JSON.parse(revoked.stdout).status, 'revoked');
    assert.equal(JSON.parse(revoked.stdout).revocation_reason, 'Issued in error');

    const listed = await academy(['--json', 'admin', 'certificates', 'list']);
    const row = JSON.parse(listed.stdout).find((c: { id: number }) => c.id === certificate.id);
    assert.equal(row.status, 'revoked');
    const text = await academy(['admin', 'certificates', 'list']);
    assert.match(text.stdout, new RegExp(`${certificate.certificate_number}\\s+revoked`));
  });

  test('refusals are errors on stderr with a non-zero exit code', async () => {
    const waitlisted = await make.enrolment({ status: 'waitlisted', waitlist_position: 1, confirmed_at: null });
    const cases: [string[], RegExp][] = [
      [
        ['issue', '--data', JSON.stringify({ enrolment_id: waitlisted.id })],
        /Enrolment \d+ is waitlisted; only a confirmed enrolment earns a certificate/,
      ],
      [['issue', '--data', '{}'], /enrolment_id: The enrolment_id field is required\./],
      [['revoke', '1', '--data', '{"reason":"  "}'], /reason: The reason field must not be blank\./],
      [['revoke', '99999999'], /not_found/],
      // A malformed id names nothing: the API's code, as for an unknown one.
      [['revoke', 'CERT-2026-000001'], /^not_found: "CERT-2026-000001" is not an id/],
    ];
    for (const [args, message] of cases) {
      const result = await academy(['--json', 'admin', 'certificates', ...args]);
      assert.equal(result.code, 1, args.join(' '));
      assert.equal(result.stdout, '');
      assert.match(jsonError(result.stderr), message);
    }
    const certificate = await make.certificate({ status: 'revoked', revoked_at: new Date().toISOString() });
    const again = await academy(['admin', 'certificates', 'revoke', String(certificate.id)]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /revoked already; revocation is final/);
  });
});
