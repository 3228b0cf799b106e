import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, type TestContext, test } from 'node:test';
import pino from 'pino';
import { assemble } from '../../src/assembly/modules.ts';
import { loadConfig } from '../../src/config.ts';
import { migrate } from '../../src/db/migrate.ts';
import type { Platform } from '../../src/platform/platform.ts';
import { createTestDatabase } from '../support/database.ts';
import { dialect, secretKeyEnv } from '../support/env.ts';

const mode = (file: string) => statSync(file).mode & 0o777;

/** A platform over a data directory that does not exist yet, as on the first `npm start`. */
async function firstStart(t: TestContext): Promise<{ platform: Platform; dataDir: string }> {
  const root = mkdtempSync(path.join(tmpdir(), 'academy-modes-'));
  const dataDir = path.join(root, 'data');
  const env: Record<string, string> = { ACADEMY_DATA_DIR: dataDir };
  let drop = async () => {};
  if (dialect === 'postgres') {
    const database = await createTestDatabase({ migrated: true });
    Object.assign(env, { DATABASE_URL: database.url, ...secretKeyEnv });
    drop = database.drop;
  }
  const { platform } = assemble(loadConfig(env), { logger: pino({ level: 'silent' }) });
  await migrate(platform.database);
  t.after(async () => {
    await platform.close();
    await drop();
    rmSync(root, { recursive: true, force: true });
  });
  return { platform, dataDir };
}

describe('files under the data directory', () => {
  test('the data directory, its mail and stored files are private to the service user', async (t) => {
    const { platform, dataDir } = await firstStart(t);
    const sent = await platform.mail.send({
      to: 'ada@example.org',
      subject: 'Invitation',
      text: 'https://academy.example.org/invitations/accept?token=x',
    });
    assert.ok(sent.file);
    assert.equal(mode(dataDir), 0o700, 'the data directory');
    assert.equal(mode(path.dirname(sent.file)), 0o700, 'the mail directory');
    assert.equal(mode(sent.file), 0o600, 'an .eml file');

    const stored = await platform.storage.put(Readable.from([Buffer.from('%PDF-1.7 report')]), { prefix: 'documents' });
    const file = path.join(platform.storage.root, ...stored.key.split('/'));
    assert.equal(mode(file), 0o600, 'a stored file');
    assert.equal(mode(path.dirname(file)), 0o700, "a stored file's directory");
    assert.equal(mode(platform.storage.root), 0o700, 'the files directory');
  });

  test('the embedded database, its journal files and the generated secret key are private', { skip: dialect !== 'sqlite' }, async (t) => {
    const { platform, dataDir } = await firstStart(t);
    await platform.tokens.create({ name: 'first', scopes: ['*'] });
    assert.equal(mode(dataDir), 0o700, 'the data directory');
    const database = path.join(dataDir, 'academy.db');
    for (const file of [database, `${database}-wal`, `${database}-shm`]) {
      assert.ok(existsSync(file), file);
      assert.equal(mode(file), 0o600, file);
    }
    assert.equal(mode(path.join(dataDir, 'secret.key')), 0o600, 'the generated secret key');
  });
});
