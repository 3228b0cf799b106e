import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { operatorContext } from '../../src/platform/context.ts';
import type { Platform } from '../../src/platform/platform.ts';
import type { Services } from '../../src/platform/services.ts';
import { jsonError, runCli } from '../support/cli.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { createTestAssembly } from '../support/platform.ts';
import { runAcademy } from '../support/process.ts';

// The `academy admin students|applications` commands (in-process, and once as a real process),
// against a database the test also reads.
describe('academy admin students and applications', () => {
  let platform: Platform;
  let services: Services;
  let make: Fixtures;
  let files = 0;

  const academy = (args: string[]) =>
    runCli(args, { DATABASE_URL: platform.config.databaseUrl, ACADEMY_DATA_DIR: platform.config.dataDir });
  const csv = (text: string) => {
    const file = path.join(platform.config.dataDir, `import-${++files}.csv`);
    writeFileSync(file, text);
    return file;
  };
  const count = async (table: 'users' | 'course_applications' | 'events') =>
    Number(
      (
        await platform.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  before(async () => {
    ({ platform, services } = await createTestAssembly());
    make = fixtures(platform);
  });

  test('the real process lists the students as JSON', async () => {
    const listed = await runAcademy(['--json', 'admin', 'students', 'list'], {
      DATABASE_URL: platform.config.databaseUrl,
      ACADEMY_DATA_DIR: platform.config.dataDir,
    });
    assert.equal(listed.code, 0, listed.stderr);
    assert.ok(Array.isArray(JSON.parse(listed.stdout)));
  });

  describe('students create and applications create', () => {
    test('create a student, give them an application (repeatable), and list both', async () => {
      const course = await make.course();
      const email = `${unique('ada')}@Example.ORG`;
      const created = await academy(['--json', 'admin', 'students', 'create', '--data', JSON.stringify({ name: ' Ada Lovelace ', email })]);
      assert.equal(created.code, 0, created.stderr);
      const student = JSON.parse(created.stdout);
      assert.equal(student.name, 'Ada Lovelace');
      assert.equal(student.email, email.toLowerCase(), 'stored lowercased');
      assert.equal(student.email_verified, false);
      assert.deepEqual(student.courses, []);

      const data = JSON.stringify({ student_id: student.id, course: course.slug });
      const applied = await academy(['--json', 'admin', 'applications', 'create', '--data', data]);
      assert.equal(applied.code, 0, applied.stderr);
      const application = JSON.parse(applied.stdout);
      assert.deepEqual(
        { ...application, id: undefined, created_at: undefined, updated_at: undefined },
        {
          id: undefined,
          student_id: student.id,
          course_id: course.id,
          course: course.slug,
          source: 'admin',
          created_at: undefined,
          updated_at: undefined,
        },
      );
      const again = await academy(['admin', 'applications', 'create', '--data', data]);
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, new RegExp(`^Application ${application.id} .* already existed; nothing changed\\.`));

      const shown = await services.students.get(operatorContext(platform), student.id);
      assert.deepEqual(shown.courses, [course.slug]);
      assert.ok(shown.updated_at >= student.updated_at, 'a new application changes the student');

      const students = await academy(['--json', 'admin', 'students', 'list', '--search', 'ADA LOVELACE']);
      assert.ok(JSON.parse(students.stdout).some((s: { id: number }) => s.id === student.id));
      const applications = await academy(['--json', 'admin', 'applications', 'list']);
      assert.equal(JSON.parse(applications.stdout).filter((a: { student_id: number }) => a.student_id === student.id).length, 1);
      const text = await academy(['admin', 'students', 'list']);
      assert.match(text.stdout, /^id\s+name\s+email\s+email_verified\s+courses\s+created_at/);
    });

    test('an email taken in any letter case, bad fields, an unknown course or a staff user are errors that name the field', async () => {
      const existing = await make.user();
      const cases: [string[], RegExp][] = [
        [
          ['students', 'create', '--data', JSON.stringify({ name: 'X', email: existing.email.toUpperCase() })],
          /email: The email .* is already taken/,
        ],
        [
          ['students', 'create', '--data', JSON.stringify({ name: '', email: 'nope', email_verified: 'yes', role: 'x' })],
          /name: .*\n.*email: .*\n.*email_verified: .*|role/,
        ],
        [['students', 'create', '--data', 'not json'], /--data must be a JSON object/],
        [
          ['applications', 'create', '--data', JSON.stringify({ student_id: existing.id, course: 'no-such-course' })],
          /course: No course has the slug "no-such-course"/,
        ],
        [
          ['applications', 'create', '--data', JSON.stringify({ student_id: 99_999_999, course: 'x' })],
          /student_id: No user has the id 99999999/,
        ],
        [
          [
            'applications',
            'create',
            '--data',
            JSON.stringify({ student_id: (await make.user({ is_admin: true })).id, course: (await make.course()).slug }),
          ],
          /student_id: User \d+ is staff/,
        ],
      ];
      for (const [args, message] of cases) {
        const result = await academy(['--json', 'admin', ...args]);
        assert.equal(result.code, 1, args.join(' '));
        assert.equal(result.stdout, '');
        assert.match(jsonError(result.stderr), message);
      }
    });
  });

  describe('applications import', () => {
    test('reports every problem with its line number and writes nothing', async () => {
      const course = await make.course();
      const archived = await make.course({ status: 'archived' });
      const staff = await make.user({ is_admin: true });
      const file = csv(
        [
          'Name,Email,Course,email_verified',
          `Ada,ada.${unique('a')}@example.org,${course.slug},true`,
          `Bad Email,not-an-email,${course.slug},`,
          `Lost,lost.${unique('l')}@example.org,no-such-course,`,
          `Staff,${staff.email},${course.slug},`,
          `Too,many,values,here,x`,
          '',
          `"Multi`,
          `line",multi.${unique('m')}@example.org,${course.slug},maybe`,
          `Closed,closed.${unique('c')}@example.org,${archived.slug},no`,
          `,,,`,
        ].join('\n'),
      );
      const before = [await count('users'), await count('course_applications')];
      const result = await academy(['admin', 'applications', 'import', file]);
      assert.equal(result.code, 1);
      assert.equal(result.stdout, '');
      const lines = result.stderr.split('\n');
      assert.match(lines[0] as string, /The file has problems on 7 line\(s\); nothing was imported/);
      for (const expected of [
        /line 3: email: The email field must be one email address/,
        /line 4: course: No course has the slug "no-such-course"/,
        /line 5: email: .* belongs to a staff user/,
        /line 6: Expected 4 values \(as in the header\), found 5/,
        /line 8: name: The name field must be one line of text, not blank\./,
        /line 8: email_verified: The email_verified field must be true or false \(1\/0, yes\/no\), or empty for false\./,
        /line 10: course: The course ".*" is archived/,
        /line 11: name: /,
        /line 11: email: /,
        /line 11: course: /,
      ]) {
        assert.ok(
          lines.some((line) => expected.test(line)),
          `${expected} in:\n${result.stderr}`,
        );
      }
      assert.ok(!/line 2:/.test(result.stderr), 'the valid row is not reported');
      assert.deepEqual([await count('users'), await count('course_applications')], before, 'nothing written');
    });

    test('a bad header, an empty file, a broken quote and a missing file are refused clearly', async () => {
      const cases: [string, RegExp][] = [
        ['name,email\nAda,ada@example.org\n', /line 1: The header has no "course" column/],
        ['name,email,course,phone\n', /line 1: Unknown column "phone"/],
        ['name,email,course,email\n', /line 1: The column "email" appears twice/],
        ['', /line 1: The file is empty/],
        ['name,email,course\n', /line 2: The file has a header but no rows/],
        ['name,email,course\n"Ada,ada@example.org,x\n', /line \d+: The file is not valid CSV/],
      ];
      for (const [text, message] of cases) {
        const result = await academy(['admin', 'applications', 'import', csv(text)]);
        assert.equal(result.code, 1, text);
        assert.match(result.stderr, message);
      }
      const missing = await academy(['admin', 'applications', 'import', '/nonexistent/students.csv']);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /Cannot read \/nonexistent\/students\.csv: no such file/);
    });

    test('as academies save files: `;` with a BOM (Excel in German or French), tabs, an XLSX sheet; --delimiter', async () => {
      const course = await make.course();
      const people = (n: number) => Array.from({ length: n }, (_, i) => [`Müller, Jürgen ${i}`, `j${i}.${unique('m')}@example.org`]);
      const expectCreated = async (file: string, rows: number, extra: string[] = []) => {
        const result = await academy(['--json', 'admin', 'applications', 'import', file, ...extra]);
        assert.equal(result.code, 0, result.stderr);
        const summary = JSON.parse(result.stdout);
        assert.equal(summary.students_created, rows, result.stdout);
        return summary;
      };

      const semicolons = people(3);
      // A name with a comma in it: only the `;` reading keeps it whole.
      await expectCreated(
        csv(
          `\uFEFFName;E-Mail;Course\r\n`.replace('E-Mail', 'email') + semicolons.map(([n, e]) => `${n};${e};${course.slug}`).join('\r\n'),
        ),
        3,
      );
      const names = await platform.database.db
        .selectFrom('users')
        .select('name')
        .where(
          'email',
          'in',
          semicolons.map(([, e]) => e as string),
        )
        .execute();
      assert.deepEqual(names.map((r) => r.name).sort(), semicolons.map(([n]) => n).sort(), 'names with commas kept whole');

      const tabs = people(2);
      await expectCreated(csv(`name\temail\tcourse\n${tabs.map(([n, e]) => `${n}\t${e}\t${course.slug}`).join('\n')}\n`), 2);

      // Given rather than guessed: a header of one column is not enough to guess from.
      const bars = people(1);
      await expectCreated(csv(`name|email|course\n${bars.map(([n, e]) => `${n}|${e}|${course.slug}`).join('\n')}\n`), 1, [
        '--delimiter',
        'bar',
      ]);
      const wrong = await academy(['admin', 'applications', 'import', csv('name,email,course\n'), '--delimiter', 'x']);
      assert.equal(wrong.code, 1);
      assert.match(wrong.stderr, /--delimiter must be one of comma, semicolon, tab, bar/);

      const { default: ExcelJS } = await import('exceljs');
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Students');
      sheet.addRow(['Name', 'Email', 'Course', 'email_verified']);
      const sheetPeople = people(3);
      for (const [n, e] of sheetPeople) sheet.addRow([n, { text: e, hyperlink: `mailto:${e}` }, course.slug, true]);
      sheet.addRow([]);
      sheet.addRow(['Bad Row', 'not-an-email', course.slug, 'maybe']);
      const xlsx = path.join(platform.config.dataDir, `import-${++files}.xlsx`);
      await workbook.xlsx.writeFile(xlsx);
      const refused = await academy(['--json', 'admin', 'applications', 'import', xlsx]);
      assert.equal(refused.code, 1);
      const lines = refused.stderr
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      // --json: one line per problem, with its line (the sheet's row number), then the verdict.
      assert.deepEqual(lines.slice(0, -1), [
        { line: 6, field: 'email', message: lines[0].message },
        { line: 6, field: 'email_verified', message: lines[1].message },
      ]);
      assert.match(lines[0].message, /email address/);
      assert.deepEqual(lines.at(-1), {
        message: 'The file has problems on 1 line(s); nothing was imported. Fix them and run it again:',
        code: 'import_rejected',
      });

      sheet.spliceRows(6, 1);
      await workbook.xlsx.writeFile(xlsx);
      const imported = await expectCreated(xlsx, 3);
      assert.equal(imported.rows, 3);
      const verified = await platform.database.db
        .selectFrom('users')
        .select('email_verified')
        .where('email', '=', sheetPeople[0]?.[1] as string)
        .executeTakeFirstOrThrow();
      assert.ok(verified.email_verified, 'a TRUE cell reads as true');
    });

    test('--dry-run reports what would happen and writes nothing; the import does it; a re-run creates nothing', async () => {
      const [python, data] = [await make.course(), await make.course()];
      const known = await make.student({ name: 'Known Person' }, { courseId: python.id });
      const newcomer = `new.${unique('n')}@example.org`;
      const file = csv(
        [
          '\uFEFFemail,name,course',
          `${known.email.toUpperCase()},Renamed Person,${python.slug}`,
          `${known.email},Known Person,${data.slug}`,
          `${newcomer},New Person,${python.slug}`,
          `${newcomer},New Person,${data.slug}`,
          `${newcomer},New Person,${data.slug.toUpperCase()}`,
        ].join('\r\n'),
      );
      const before = [await count('users'), await count('course_applications'), await count('events')];

      const dry = await academy(['--json', 'admin', 'applications', 'import', file, '--dry-run']);
      assert.equal(dry.code, 0, dry.stderr);
      const expected = {
        rows: 5,
        students_created: 1,
        students_existing: 1,
        applications_created: 3,
        applications_existing: 1,
        duplicate_rows: 1,
      };
      assert.deepEqual(JSON.parse(dry.stdout), { dry_run: true, ...expected });
      assert.deepEqual([await count('users'), await count('course_applications'), await count('events')], before);
      const dryText = await academy(['admin', 'applications', 'import', file, '--dry-run']);
      assert.match(dryText.stdout, /^Dry run, nothing written\. The import would create 1 student\(s\) and 3 application\(s\)/);

      const real = await academy(['--json', 'admin', 'applications', 'import', file]);
      assert.equal(real.code, 0, real.stderr);
      assert.deepEqual(JSON.parse(real.stdout), { dry_run: false, ...expected });
      assert.deepEqual([await count('users'), await count('course_applications')], [(before[0] as number) + 1, (before[1] as number) + 3]);

      const ctx = operatorContext(platform);
      const unchanged = await services.students.get(ctx, known.id);
      assert.equal(unchanged.name, 'Known Person', 'an existing user is matched by email and left unchanged');
      assert.deepEqual(unchanged.courses, [python.slug, data.slug].sort());
      const created = await platform.database.db.selectFrom('users').selectAll().where('email', '=', newcomer).executeTakeFirstOrThrow();
      assert.equal(created.name, 'New Person');
      assert.equal(Boolean(created.email_verified), false);
      const sources = await platform.database.db
        .selectFrom('course_applications')
        .select('source')
        .where('user_id', '=', created.id)
        .execute();
      assert.deepEqual(
        sources.map((s) => s.source),
        ['import', 'import'],
      );

      const events = await platform.database.db
        .selectFrom('events')
        .selectAll()
        .where('type', '=', 'course_application.imported')
        .execute();
      const event = events.map((e) => JSON.parse(e.payload)).find((p) => p.source === path.basename(file));
      assert.equal(event.applications_created, 3);
      assert.equal(event.students_created, 1);
      assert.equal(event.batch, 1);
      assert.equal(event.batches, 1);
      assert.match(event.import_id, /^imp_/);
      assert.equal(event.applications.length, 3);

      const rerun = await academy(['--json', 'admin', 'applications', 'import', file]);
      assert.equal(rerun.code, 0, rerun.stderr);
      assert.deepEqual(JSON.parse(rerun.stdout), {
        dry_run: false,
        rows: 5,
        students_created: 0,
        students_existing: 2,
        applications_created: 0,
        applications_existing: 4,
        duplicate_rows: 1,
      });
      assert.deepEqual([await count('users'), await count('course_applications')], [(before[0] as number) + 1, (before[1] as number) + 3]);
      const after = await platform.database.db
        .selectFrom('events')
        .select('id')
        .where('type', '=', 'course_application.imported')
        .execute();
      assert.equal(after.length, events.length, 'a re-run that creates nothing announces nothing');
    });

    // A test's own time, not a speed target (those are the benchmarks'): on a loaded two-core machine
    // running both suites, the import took just over two minutes.
    test('a 5,000-row file shows progress on stderr, writes in batches and finishes; --json is quiet', { timeout: 600_000 }, async () => {
      const courses = [await make.course(), await make.course()];
      const tag = unique('bulk').toLowerCase();
      const rows = ['name,email,course,email_verified'];
      for (let i = 0; i < 5000; i++)
        rows.push(`Student ${i},s${i}.${tag}@example.org,${courses[i % 2]?.slug},${i % 3 === 0 ? 'yes' : 'no'}`);
      const file = csv(`${rows.join('\n')}\n`);

      const result = await academy(['admin', 'applications', 'import', file]);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /^Imported: created 5000 student\(s\) and 5000 application\(s\) from 5000 row\(s\)/);
      const progress = result.stderr.trim().split('\n');
      assert.ok(
        progress.includes('Checked 1000 rows (20% of the file)') ||
          progress.some((l) => /^Checked 1000 rows \(\d+% of the file\)$/.test(l)),
        result.stderr,
      );
      assert.ok(progress.includes('Imported 500 of 5000 rows (10%)'), result.stderr);
      assert.equal(progress.at(-1), 'Imported 5000 of 5000 rows (100%)');

      const batches = (
        await platform.database.db.selectFrom('events').selectAll().where('type', '=', 'course_application.imported').execute()
      )
        .map((e) => JSON.parse(e.payload))
        .filter((p) => p.source === path.basename(file));
      assert.equal(batches.length, 10);
      assert.equal(new Set(batches.map((b) => b.import_id)).size, 1);
      assert.equal(
        batches.reduce((sum, b) => sum + b.applications_created, 0),
        5000,
      );
      const verified = await platform.database.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('email', 'like', `%.${tag}@example.org`)
        .where('email_verified', '=', true)
        .executeTakeFirstOrThrow();
      assert.equal(Number(verified.n), 1667);

      const quiet = await academy(['--json', 'admin', 'applications', 'import', file]);
      assert.equal(quiet.code, 0, quiet.stderr);
      assert.equal(quiet.stderr, '');
      assert.equal(JSON.parse(quiet.stdout).applications_existing, 5000);
    });
  });
});
