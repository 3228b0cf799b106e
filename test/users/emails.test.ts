import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { up as normaliseStoredEmails } from '../../src/db/migrations/0022_normalised_emails.ts';
import { jsonError, runCli } from '../support/cli.ts';
import { fixtures, unique } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

/**
 * One mailbox, one user (CONTRACT.md, Domain decisions, "Emails"): an address is trimmed,
 * NFC-normalised and lowercased before it is checked and compared; look-alike forms of an address
 * (decorations, invisible characters, compatibility forms) are refused, not folded, by every writer.
 */
describe('emails: one normalised address per user, whoever writes it', () => {
  let app: TestApp;
  let writer: string;
  let files = 0;

  const post = (body: object) => app.http.inject({ method: 'POST', url: '/api/v1/users', headers: bearer(writer), payload: body });
  const patch = (id: number, body: object) =>
    app.http.inject({ method: 'PATCH', url: `/api/v1/users/${id}`, headers: bearer(writer), payload: body });
  const cli = (...args: string[]) =>
    runCli(['--json', ...args], { DATABASE_URL: app.platform.config.databaseUrl, ACADEMY_DATA_DIR: app.platform.config.dataDir });
  const data = (value: unknown) => ['--data', JSON.stringify(value)];
  const csv = (text: string) => {
    const file = path.join(app.platform.config.dataDir, `emails-${++files}.csv`);
    writeFileSync(file, text);
    return file;
  };

  /** Each a distinct address today's check lets through, yet the same mailbox as a plain one, or no address at all. */
  const badForms = (tag: string): [string, string][] => [
    ['angle brackets', `<${tag}@example.org>`],
    ['a quoted local part', `"${tag}"@example.org`],
    ['typographic quotes', `\u201c${tag}\u201d@example.org`],
    ['a trailing dot', `${tag}@example.org.`],
    ['a fullwidth letter', `\uff4a${tag}@example.org`],
    ['a fullwidth @', `${tag}\uff20example.org`],
    ['U+200D (zero-width joiner)', `jo\u200dse.${tag}@example.org`],
    ['U+00AD (soft hyphen)', `jo\u00adse.${tag}@example.org`],
    ['U+200B (zero-width space) at the end', `${tag}@example.org\u200b`],
    ['a control character', `jo\u0007se.${tag}@example.org`],
    ['a space', `jo se.${tag}@example.org`],
    ['a no-break space', `jo\u00a0se.${tag}@example.org`],
  ];

  before(async () => {
    app = await createTestApp();
    writer = await app.token(['users:read', 'users:write']);
  });

  test('POST and PATCH /users refuse every look-alike form with a 422 validation_failed on email', async () => {
    const tag = unique('bad').toLowerCase();
    const created = await post({ name: 'Plain', email: `plain.${tag}@example.org` });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.json().data.id as number;
    for (const [what, email] of badForms(tag)) {
      for (const res of [await post({ name: 'Look Alike', email }), await patch(id, { email })]) {
        assert.equal(res.statusCode, 422, `${what}: ${JSON.stringify(email)} → ${res.body}`);
        assert.equal(res.json().code, 'validation_failed', what);
        assert.deepEqual(Object.keys(res.json().errors), ['email'], what);
      }
    }
    const stored = await app.platform.database.db.selectFrom('users').select('email').where('email', 'like', `%${tag}%`).execute();
    assert.deepEqual(
      stored.map((u) => u.email),
      [`plain.${tag}@example.org`],
      'nothing else was written',
    );
  });

  test('an apostrophe and a local part ending in a dot are still addresses; so are letters beyond ASCII', async () => {
    const tag = unique('ok').toLowerCase();
    for (const email of [`o'brien.${tag}@example.org`, `taro.${tag}.@example.jp`, `jos\u00e9.${tag}@b\u00fccher.example`]) {
      const res = await post({ name: 'Fine', email });
      assert.equal(res.statusCode, 201, `${email}: ${res.body}`);
      assert.equal(res.json().data.email, email);
    }
  });

  test('the NFD and NFC forms, in any letter case, are one address: stored NFC, the second is the duplicate error', async () => {
    const tag = unique('nfd').toLowerCase();
    const nfc = `jos\u00e9.${tag}@example.org`;
    const nfd = `jose\u0301.${tag}@example.org`;
    const first = await post({ name: 'José', email: ` ${nfd.toUpperCase()} ` });
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.json().data.email, nfc, 'trimmed, lowercased and composed');
    for (const email of [nfc, nfd, nfc.toUpperCase(), nfd.toUpperCase()]) {
      const res = await post({ name: 'José Again', email });
      assert.equal(res.statusCode, 422, `${JSON.stringify(email)}: ${res.body}`);
      assert.equal(res.json().code, 'validation_failed', `${JSON.stringify(email)}: ${res.body}`);
      assert.deepEqual(Object.keys(res.json().errors), ['email']);
      assert.match(res.json().errors.email[0], /already taken/);
    }
    const other = await post({ name: 'Other', email: `other.${tag}@example.org` });
    const moved = await patch(other.json().data.id, { email: nfd });
    assert.equal(moved.statusCode, 422, moved.body);
    assert.equal(moved.json().code, 'validation_failed', moved.body);
    assert.match(moved.json().errors.email[0], /already taken/);
    const own = await patch(first.json().data.id, { email: nfd.toUpperCase() });
    assert.equal(own.statusCode, 200, 'its own address in another form is not taken');
    assert.equal(own.json().data.email, nfc);
  });

  test('academy admin users create and students create refuse the same forms, and the duplicates', async () => {
    const tag = unique('cli').toLowerCase();
    for (const [what, email] of badForms(tag)) {
      for (const command of ['users', 'students'] as const) {
        const result = await cli('admin', command, 'create', ...data({ name: 'Look Alike', email }));
        assert.equal(result.code, 1, `${command} create, ${what}: ${result.stdout}`);
        assert.match(jsonError(result.stderr), /^validation_failed: [^\n]*\n {2}email: /, `${command} create, ${what}`);
      }
    }
    const staff = await cli('admin', 'users', 'create', ...data({ name: 'Zoë', email: `zoe\u0308.${tag}@example.org` }));
    assert.equal(staff.code, 0, staff.stderr);
    assert.equal(JSON.parse(staff.stdout).email, `zo\u00eb.${tag}@example.org`);
    const student = await cli('admin', 'students', 'create', ...data({ name: 'Zoë', email: `ZO\u00cb.${tag}@example.org` }));
    assert.equal(student.code, 1, student.stdout);
    assert.match(jsonError(student.stderr), /email: The email .* is already taken/);
    const token = await cli('tokens', 'create', '--name', 'zoe', '--scopes', 'users:read', '--user', `ZOE\u0308.${tag}@EXAMPLE.org`);
    assert.equal(token.code, 0, token.stderr);
    assert.equal(JSON.parse(token.stdout).user_id, JSON.parse(staff.stdout).id, 'a look-up by email normalises alike');
  });

  test('the applications CSV import reports each look-alike form on its line and imports nothing', async () => {
    const tag = unique('csv').toLowerCase();
    const { slug } = await fixtures(app.platform).course();
    const forms = badForms(tag);
    const quoted = (value: string) => `"${value.replaceAll('"', '""')}"`;
    const file = csv(['name,email,course', ...forms.map(([, email]) => `Look Alike,${quoted(email)},${slug}`)].join('\n'));
    const result = await cli('admin', 'applications', 'import', file);
    assert.equal(result.code, 1, result.stdout);
    forms.forEach(([what], index) => {
      // --json: each problem is a JSON line of its own
      assert.ok(result.stderr.includes(`{"line":${index + 2},"field":"email",`), `${what} (line ${index + 2}) in:\n${result.stderr}`);
    });
    const written = await app.platform.database.db.selectFrom('users').select('id').where('email', 'like', `%${tag}%`).execute();
    assert.deepEqual(written, []);

    // Two rows of one person, NFD and NFC: one student.
    const twice = csv(
      ['name,email,course', `Zoë,zoe\u0308.${tag}@example.org,${slug}`, `Zoë,ZO\u00cb.${tag}@example.org,${slug}`].join('\n'),
    );
    const imported = await cli('admin', 'applications', 'import', twice);
    assert.equal(imported.code, 0, imported.stderr);
    const students = await app.platform.database.db.selectFrom('users').select('email').where('email', 'like', `%${tag}%`).execute();
    assert.deepEqual(
      students.map((s) => s.email),
      [`zo\u00eb.${tag}@example.org`],
    );
  });

  describe('migration 0022: stored emails normalised', () => {
    const insert = async (email: string) =>
      (
        await app.platform.database.db
          .insertInto('users')
          .values({
            name: 'Stored',
            email,
            status: 'active',
            is_admin: true,
            permissions: '[]',
            email_verified: false,
            created_at: '2024-01-01T00:00:00.000Z',
            updated_at: '2024-01-01T00:00:00.000Z',
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const emailOf = async (id: number) =>
      (await app.platform.database.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email;
    const migrate = () =>
      app.platform.database.db.transaction().execute((trx) => normaliseStoredEmails(trx, app.platform.database.dialect));

    test('rewrites each stored address to its normalised form', async () => {
      const tag = unique('mig').toLowerCase();
      const rows = {
        [`  Ana.${tag}@Example.ORG `]: `ana.${tag}@example.org`,
        [`jose\u0301.${tag}@example.org`]: `jos\u00e9.${tag}@example.org`,
        [`<bracketed.${tag}@example.org>`]: `bracketed.${tag}@example.org`,
        [`dotted.${tag}@example.org.`]: `dotted.${tag}@example.org`,
        [`in\u200bvisible.${tag}@example.org`]: `invisible.${tag}@example.org`,
        [`\uff46ull.${tag}@example.org`]: `full.${tag}@example.org`,
      };
      const ids = new Map<number, string>();
      for (const [stored, normalised] of Object.entries(rows)) ids.set(await insert(stored), normalised);
      await migrate();
      for (const [id, normalised] of ids) assert.equal(await emailOf(id), normalised);
    });

    test('rows that would become one address stop the migration, naming their ids, and nothing is changed', async () => {
      const tag = unique('clash').toLowerCase();
      const nfc = await insert(`jos\u00e9.${tag}@example.org`);
      const nfd = await insert(`jose\u0301.${tag}@example.org`);
      const plain = await insert(`ana.${tag}@example.org`);
      const bracketed = await insert(`<ANA.${tag}@example.org>`);
      const dotted = await insert(`ana.${tag}@example.org.`);
      const lone = await insert(`  Lone.${tag}@Example.org`);
      await assert.rejects(migrate(), (error: Error) => {
        assert.match(error.message, /2 addresses are held by more than one user/);
        assert.ok(error.message.includes(`jos\u00e9.${tag}@example.org: users ${nfc}, ${nfd}`), error.message);
        assert.ok(error.message.includes(`ana.${tag}@example.org: users ${plain}, ${bracketed}, ${dotted}`), error.message);
        return true;
      });
      assert.equal(await emailOf(lone), `  Lone.${tag}@Example.org`, 'rolled back: not even the lone row changed');
      assert.equal(await emailOf(nfd), `jose\u0301.${tag}@example.org`);

      // Once the operator gives all but one of each group another address, it runs.
      await app.platform.database.db.deleteFrom('users').where('id', 'in', [nfd, bracketed, dotted]).execute();
      await migrate();
      assert.equal(await emailOf(lone), `lone.${tag}@example.org`);
    });
  });
});
