import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'academy-secret-key-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function refused(env: Record<string, string>, variable: string, reason: RegExp): void {
  assert.throws(
    () => loadConfig(env),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError, `${JSON.stringify(env)} throws a ConfigError`);
      assert.equal(error.variable, variable);
      assert.match(error.message, new RegExp(`\\b${variable}\\b`));
      assert.match(error.message, reason);
      return true;
    },
  );
}

describe('the secret key (ACADEMY_SECRET_KEY, ACADEMY_SECRET_KEY_FILE)', () => {
  test('32 bytes in base64, base64url or hex are accepted, from the variable or a file', () => {
    const key = randomBytes(32);
    const ids = new Set<string>();
    for (const text of [key.toString('base64'), key.toString('base64url'), key.toString('hex')]) {
      const config = loadConfig({ ACADEMY_SECRET_KEY: text });
      assert.equal(config.secretKey.source, 'ACADEMY_SECRET_KEY');
      ids.add(config.secretKey.source === 'ACADEMY_SECRET_KEY' ? config.secretKey.key.id : '');
    }
    assert.equal(ids.size, 1, 'one key, one key id, however it is written');
    const file = path.join(dir, 'key');
    writeFileSync(file, `${key.toString('base64')}\n`);
    const fromFile = loadConfig({ ACADEMY_SECRET_KEY_FILE: file });
    assert.equal(fromFile.secretKey.source === 'ACADEMY_SECRET_KEY_FILE' && fromFile.secretKey.key.id, [...ids][0]);
  });

  test('the key never appears when the configuration is printed', () => {
    const text = randomBytes(32).toString('base64');
    const config = loadConfig({ ACADEMY_SECRET_KEY: text });
    assert.ok(!JSON.stringify(config).includes(text));
    assert.ok(!JSON.stringify(config).includes(Buffer.from(text, 'base64').toString('hex')));
  });

  test('a key of the wrong size or alphabet, two sources, or a missing file stop the start naming the variable', () => {
    refused({ ACADEMY_SECRET_KEY: 'change-me' }, 'ACADEMY_SECRET_KEY', /32 bytes/);
    refused({ ACADEMY_SECRET_KEY: randomBytes(16).toString('base64') }, 'ACADEMY_SECRET_KEY', /32 bytes/);
    refused(
      { ACADEMY_SECRET_KEY: randomBytes(32).toString('base64'), ACADEMY_SECRET_KEY_FILE: path.join(dir, 'key') },
      'ACADEMY_SECRET_KEY_FILE',
      /not both/,
    );
    refused({ ACADEMY_SECRET_KEY_FILE: path.join(dir, 'missing') }, 'ACADEMY_SECRET_KEY_FILE', /cannot be read/);
    const bad = path.join(dir, 'bad');
    writeFileSync(bad, 'not a key\n');
    refused({ ACADEMY_SECRET_KEY_FILE: bad }, 'ACADEMY_SECRET_KEY_FILE', /32 bytes/);
  });

  test('PostgreSQL needs a key every process shares; the embedded database generates one under the data directory', () => {
    refused({ DATABASE_URL: 'postgres://academy@127.0.0.1:5432/academy' }, 'ACADEMY_SECRET_KEY', /PostgreSQL/);
    const config = loadConfig({ ACADEMY_DATA_DIR: dir });
    assert.deepEqual(config.secretKey, { source: 'generated', file: path.join(dir, 'secret.key') });
  });
});
