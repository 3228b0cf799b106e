import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { EXIT_UNAVAILABLE } from '../../src/assembly/commands/main.ts';
import { runCli } from '../support/cli.ts';
import { freePort } from '../support/sockets.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'academy-unavailable-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('a command whose database cannot be reached', () => {
  test('fails with the API code `unavailable` and exit 75 (retry later), not as a generic failure', async () => {
    // A PostgreSQL deployment's processes share a secret key (the SQLite suite has none of its own).
    const env = {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await freePort()}/academy`,
      ACADEMY_DATA_DIR: dir,
      ACADEMY_SECRET_KEY: randomBytes(32).toString('base64'),
    };
    const json = await runCli(['--json', 'admin', 'courses', 'list'], env);
    assert.equal(json.code, EXIT_UNAVAILABLE, json.stderr);
    assert.equal(EXIT_UNAVAILABLE, 75);
    const body = JSON.parse(json.stderr.trim().split('\n').pop() as string) as { code: string; message: string };
    assert.equal(body.code, 'unavailable');
    assert.match(body.message, /^The database is temporarily unavailable; retry later\. \(.*ECONNREFUSED.*\)$/);

    const text = await runCli(['tokens', 'list'], env);
    assert.equal(text.code, EXIT_UNAVAILABLE);
    assert.match(text.stderr, /^Error: The database is temporarily unavailable; retry later\./);
  });
});
