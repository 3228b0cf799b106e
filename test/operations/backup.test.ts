import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { runCli } from '../support/cli.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { dialect, secretKeyEnv } from '../support/env.ts';
import { type AcademyServer, runAcademy, startServer } from '../support/process.ts';

/** A PDF (by its signature) of `size` random bytes: stored files that do not compress. */
function pdf(size: number): Buffer {
  const head = Buffer.from('%PDF-1.4\n');
  return Buffer.concat([head, randomBytes(size - head.length - 6), Buffer.from('\n%%EOF')]);
}

/** Every directory and file under `root` with its permission bits, e.g. `files/documents 700`. */
function modes(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true }).map((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return `${entry.isDirectory() ? 'dir' : 'file'} ${(statSync(file).mode & 0o777).toString(8)}`;
  });
}

const made: string[] = [];
after(() => {
  for (const directory of made) rmSync(directory, { recursive: true, force: true });
});
const newDirectory = (prefix = 'academy-restore-') => {
  const directory = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(directory);
  return directory;
};
const sqliteEnv = (dataDir: string) => ({ DATABASE_URL: `sqlite:${path.join(dataDir, 'academy.db')}`, ACADEMY_DATA_DIR: dataDir });

interface Write {
  id: number;
  email: string;
  ackedAt: number;
}

interface Upload {
  id: number;
  bytes: Buffer;
  ackedAt: number;
}

describe('academy backup and restore (SQLite)', { skip: dialect !== 'sqlite' && 'the embedded database only' }, () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let server: AcademyServer;
  let token: string;
  let archive: string;

  before(async () => {
    database = await createTestDatabase({ migrated: true });
    env = { DATABASE_URL: database.url, ACADEMY_DATA_DIR: database.dataDir, ACADEMY_RATE_LIMIT_PER_MINUTE: '10000000' };
    // Ballast, so that the online copy takes many steps (1024 pages each) while the writes go on.
    const ballast = new DatabaseSync(database.url.slice('sqlite:'.length));
    ballast.exec('create table backup_test_ballast (id integer primary key, data blob not null)');
    const insert = ballast.prepare('insert into backup_test_ballast (data) values (?)');
    ballast.exec('begin');
    for (let i = 0; i < 2500; i++) insert.run(randomBytes(8192));
    ballast.exec('commit');
    ballast.close();
    server = await startServer(['--no-worker'], env, 90_000);
    const created = await runCli(['--json', 'tokens', 'create', '--name', 'backup-test', '--scopes', '*'], env);
    assert.equal(created.code, 0, created.stderr);
    token = JSON.parse(created.stdout).token;
    archive = path.join(newDirectory('academy-backup-'), 'academy-backup.tar');
  });

  after(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await database?.drop();
  });

  const headers = () => ({ authorization: `Bearer ${token}` });

  async function createUser(base: string, n: number): Promise<Write> {
    const email = `writer-${n}@backup.example`;
    const res = await fetch(`${base}/api/v1/users`, {
      method: 'POST',
      headers: { ...headers(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Writer ${n}`, email }),
    });
    assert.equal(res.status, 201, await res.clone().text());
    const ackedAt = performance.now();
    return { id: ((await res.json()) as { data: { id: number } }).data.id, email, ackedAt };
  }

  async function upload(base: string, size: number): Promise<Upload> {
    const bytes = pdf(size);
    const body = new FormData();
    body.append('type', 'course_document');
    body.append('file', new Blob([bytes], { type: 'application/pdf' }), 'handout.pdf');
    const res = await fetch(`${base}/api/v1/documents`, { method: 'POST', headers: headers(), body });
    assert.equal(res.status, 201, await res.clone().text());
    const ackedAt = performance.now();
    return { id: ((await res.json()) as { data: { id: number } }).data.id, bytes, ackedAt };
  }

  test('a backup taken while writes go on holds every write acknowledged before it began, and restores whole', async (t) => {
    const writes: Write[] = [];
    const uploads: Upload[] = [await upload(server.url, 300_000), await upload(server.url, 70_000)];
    let stop = false;
    let next = 0;
    const writers = Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; !stop; i++) {
          writes.push(await createUser(server.url, next++));
          if (w === 0 && i % 25 === 24) uploads.push(await upload(server.url, 20_000 + (i % 7) * 1000));
        }
      }),
    );
    // Many writes acknowledged before the backup begins, however fast this machine makes them.
    for (let waited = 0; writes.length <= 100 && waited < 60_000; waited += 100) await sleep(100);

    const began = performance.now();
    const backup = await runAcademy(['--json', 'backup', archive], env, 120_000);
    const ended = performance.now();
    await sleep(200);
    stop = true;
    await writers;
    assert.equal(backup.code, 0, backup.stderr);
    const summary = JSON.parse(backup.stdout);

    const before = writes.filter((write) => write.ackedAt < began);
    const during = writes.filter((write) => write.ackedAt >= began && write.ackedAt < ended);
    const filesBefore = uploads.filter((u) => u.ackedAt < began);
    assert.ok(before.length > 100, `${before.length} writes acknowledged before the backup began`);
    assert.ok(during.length > 0, 'writes went on while the backup ran');
    assert.ok(summary.database.pages > 4 * 1024, `the copy took several steps (${summary.database.pages} pages)`);
    assert.equal(summary.secret_key.included, true);
    assert.ok(summary.files.count >= filesBefore.length);
    assert.equal(statSync(archive).mode & 0o777, 0o600, 'the archive is private');
    assert.deepEqual(readdirSync(path.dirname(archive)), [path.basename(archive)], 'no partial file or copy is left beside it');

    const dataDir = newDirectory();
    const restoredEnv = { ...sqliteEnv(dataDir), ACADEMY_RATE_LIMIT_PER_MINUTE: '10000000' };
    const restore = await runAcademy(['--json', 'restore', archive], restoredEnv, 120_000);
    assert.equal(restore.code, 0, restore.stderr);
    const restored = JSON.parse(restore.stdout);
    assert.equal(restored.database.integrity, 'ok');
    assert.equal(restored.secret_key.restored, true);
    assert.equal(restored.files.count, summary.files.count);
    assert.deepEqual([...new Set(modes(dataDir))].sort(), ['dir 700', 'file 600']);

    const copy = await startServer(['--no-worker'], restoredEnv, 90_000);
    t.after(async () => {
      copy.child.kill('SIGKILL');
      await copy.exited;
    });
    const missing: number[] = [];
    let found = 0;
    for (let i = 0; i < before.length; i += 16) {
      await Promise.all(
        before.slice(i, i + 16).map(async (write) => {
          const res = await fetch(`${copy.url}/api/v1/users/${write.id}`, { headers: headers() });
          if (res.status !== 200) return missing.push(write.id);
          assert.equal(((await res.json()) as { data: { email: string } }).data.email, write.email);
          found += 1;
        }),
      );
    }
    assert.deepEqual(missing, [], 'every write acknowledged before the backup began is in the copy');
    for (const document of filesBefore) {
      const res = await fetch(`${copy.url}/api/v1/documents/${document.id}/download`, { headers: headers() });
      assert.equal(res.status, 200);
      assert.ok(Buffer.from(await res.arrayBuffer()).equals(document.bytes), `document ${document.id} has the same bytes`);
    }
    const ballast = new DatabaseSync(path.join(dataDir, 'academy.db'), { readOnly: true });
    assert.equal((ballast.prepare('select count(*) as n from backup_test_ballast').get() as { n: number }).n, 2500);
    ballast.close();
    t.diagnostic(
      `${before.length} writes acknowledged before the backup began, ${found} found after the restore; ` +
        `${during.length} more during the backup (${writes.length} in all); ${filesBefore.length} documents before it, ` +
        `all with their bytes; backup ${summary.archive_bytes} bytes (database ${summary.database.bytes}, ` +
        `${summary.files.count} files ${summary.files.bytes}) in ${summary.seconds} s, restore in ${restored.seconds} s`,
    );
  });

  test('restore refuses a data directory that holds a database, a key or stored files, and changes nothing', async () => {
    const before = readdirSync(database.dataDir).sort();
    const refused = await runCli(['restore', archive], env);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^Error: Restore only into an empty data directory; these exist: .*academy\.db/);
    assert.deepEqual(readdirSync(database.dataDir).sort(), before);

    const keyOnly = newDirectory();
    writeFileSync(path.join(keyOnly, 'secret.key'), `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    const json = await runCli(['--json', 'restore', archive], sqliteEnv(keyOnly));
    assert.equal(json.code, 1);
    assert.equal(JSON.parse(json.stderr).code, 'failed');
    assert.match(JSON.parse(json.stderr).message, /secret\.key/);
    assert.deepEqual(readdirSync(keyOnly), ['secret.key']);
  });

  test('a truncated or altered archive is refused, and nothing of it is left behind', async () => {
    const whole = readFileSync(archive);
    const truncated = `${archive}.truncated`;
    writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length * 0.6)));
    const absent = path.join(newDirectory(), 'data');
    const cut = await runCli(['restore', truncated], sqliteEnv(absent));
    assert.equal(cut.code, 1);
    assert.match(cut.stderr, /truncated/);
    assert.equal(existsSync(absent), false, 'the data directory it made is gone again');

    // A stored file's bytes altered: only the manifest's checksum tells.
    const tampered = (member: string, name: string) => {
      const tar = Buffer.from(whole);
      const header = tar.indexOf(member);
      tar[header + 512 + 1000] = (tar[header + 512 + 1000] as number) ^ 0xff;
      const file = `${archive}.${name}`;
      writeFileSync(file, tar);
      return file;
    };
    const empty = newDirectory();
    const changed = await runCli(['--json', 'restore', tampered('files/documents/', 'altered-file')], sqliteEnv(empty));
    assert.equal(changed.code, 1);
    const error = JSON.parse(changed.stderr);
    assert.equal(error.code, 'damaged_archive');
    assert.match(error.message, /^The archive is damaged: files\/documents\/\S+ does not match its checksum in the manifest\.$/);
    assert.deepEqual(readdirSync(empty), [], 'nothing written');

    // The compressed database altered: its own gzip check or the manifest refuses it.
    const database = await runCli(['restore', tampered('academy.db.gz', 'altered-database')], sqliteEnv(empty));
    assert.equal(database.code, 1);
    assert.match(database.stderr, /damaged/);
    assert.deepEqual(readdirSync(empty), [], 'nothing written');

    const foreign = await runCli(['restore', path.join(import.meta.dirname, 'backup.test.ts')], sqliteEnv(empty));
    assert.match(foreign.stderr, /^Error: The file is not a backup archive: it does not begin with a tar header\.$/m);
    assert.deepEqual(readdirSync(empty), []);

    const notOne = await runCli(['restore', truncated.replace(/truncated$/, 'missing')], sqliteEnv(newDirectory()));
    assert.match(notOne.stderr, /There is no backup at/);
  });
});

describe('academy backup and restore (PostgreSQL)', { skip: dialect !== 'postgres' && 'PostgreSQL only' }, () => {
  let dump: string;
  before(() => {
    dump = path.join(newDirectory('academy-dump-'), 'academy.dump');
  });

  test('backup prints the pg_dump line for DATABASE_URL, without its password, and restore the pg_restore line', async () => {
    const dataDir = newDirectory();
    const env = {
      DATABASE_URL: 'postgres://academy:n0t-in-the-line@db.example:5433/academy_prod?sslmode=require',
      ACADEMY_DATA_DIR: dataDir,
      ...secretKeyEnv,
    };
    const backup = await runCli(['backup', dump], env);
    assert.equal(backup.code, 0, backup.stderr);
    const lines = backup.stdout.split('\n');
    assert.ok(
      lines.includes(`  pg_dump --format=custom --file=${dump} '--dbname=postgres://academy@db.example:5433/academy_prod?sslmode=require'`),
      backup.stdout,
    );
    assert.ok(!backup.stdout.includes('n0t-in-the-line'), 'the password is never printed');
    assert.match(backup.stdout, /give it in PGPASSWORD .* or in a ~\/\.pgpass line/);
    assert.ok(lines.includes(`  tar -czf ${dump}.files.tar.gz -C ${dataDir} files`), 'the stored files to copy');
    assert.match(backup.stdout, /ACADEMY_SECRET_KEY, key [0-9a-f]{8}\) is in neither/);

    const json = JSON.parse((await runCli(['--json', 'restore', dump], env)).stdout);
    assert.deepEqual(json.argv, [
      'pg_restore',
      '--no-owner',
      '--exit-on-error',
      '--single-transaction',
      '--dbname=postgres://academy@db.example:5433/academy_prod?sslmode=require',
      dump,
    ]);
    assert.equal(json.files.command, `tar -xzf ${dump}.files.tar.gz -C ${dataDir}`);
    assert.equal(existsSync(path.join(dataDir, 'academy.db')), false, 'nothing made in the data directory');
  });

  test('the printed lines, run, copy the database into an empty one', async (t) => {
    const tools = spawnSync('pg_dump', ['--version'], { encoding: 'utf8' });
    if (tools.status !== 0) return t.skip('pg_dump is not installed');
    const source = await createTestDatabase({ migrated: true });
    const target = await createTestDatabase();
    t.after(() => Promise.all([source.drop(), target.drop()]));
    const env = { DATABASE_URL: source.url, ACADEMY_DATA_DIR: source.dataDir, ...secretKeyEnv };
    const created = await runCli(['--json', 'admin', 'users', 'create', '--data', '{"name":"Kept","email":"kept@backup.example"}'], env);
    assert.equal(created.code, 0, created.stderr);

    const backup = JSON.parse((await runCli(['--json', 'backup', dump], env)).stdout);
    const dumped = spawnSync(backup.argv[0], backup.argv.slice(1), { encoding: 'utf8' });
    if (/server version mismatch/.test(dumped.stderr)) return t.skip(`pg_dump is older than the server: ${dumped.stderr.trim()}`);
    assert.equal(dumped.status, 0, dumped.stderr);
    const restore = JSON.parse((await runCli(['--json', 'restore', dump], { ...env, DATABASE_URL: target.url })).stdout);
    const restored = spawnSync(restore.argv[0], restore.argv.slice(1), { encoding: 'utf8' });
    assert.equal(restored.status, 0, restored.stderr);

    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      const { rows } = await client.query("select name from users where email = 'kept@backup.example'");
      assert.deepEqual(rows, [{ name: 'Kept' }]);
    } finally {
      await client.end();
    }
  });
});
