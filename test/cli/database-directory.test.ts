import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { runAcademy } from '../support/process.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'academy-dbdir-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the SQLite file of DATABASE_URL (the real command)', () => {
  test('a file in a directory that does not exist is a configuration error (exit 78), and nothing is created', async () => {
    const missing = path.join(dir, 'no', 'such', 'dir');
    const refused = await runAcademy(['migrate'], {
      DATABASE_URL: `sqlite:${path.join(missing, 'a.db')}`,
      ACADEMY_DATA_DIR: path.join(dir, 'data'),
    });
    assert.equal(refused.code, 78, refused.stderr);
    assert.match(
      refused.stderr,
      /^Invalid configuration: DATABASE_URL names a file in a directory that does not exist \(.*no\/such\/dir\)/,
    );
    assert.equal(existsSync(path.join(dir, 'no')), false, 'no directory was created');
  });

  test('the data directory is created on first start, by default and when DATABASE_URL points into it', async () => {
    const fresh = path.join(dir, 'fresh', 'data');
    const byDefault = await runAcademy(['migrate'], { DATABASE_URL: '', ACADEMY_DATA_DIR: fresh });
    assert.equal(byDefault.code, 0, byDefault.stderr);
    assert.ok(existsSync(path.join(fresh, 'academy.db')));

    const other = path.join(dir, 'other', 'data');
    const explicit = await runAcademy(['migrate'], { DATABASE_URL: `sqlite:${path.join(other, 'academy.db')}`, ACADEMY_DATA_DIR: other });
    assert.equal(explicit.code, 0, explicit.stderr);
    assert.ok(existsSync(path.join(other, 'academy.db')));
  });
});
