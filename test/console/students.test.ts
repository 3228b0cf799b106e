import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { operatorContext } from '../../src/platform/context.ts';
import { inputValue, type SignedIn, signedInStaff, textOf } from '../support/console.ts';
import { fixtures, unique } from '../support/fixtures.ts';
import { formClient } from '../support/forms.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';

/**
 * The console's students, applications import and certificates (issue 41) through their pages, as
 * a browser uses them: the list and search, a new student (422 first), the import of a CSV or XLSX
 * file with its preview (a dry run: problems by line, nothing written), its confirmation and outcome,
 * issuing and revoking a certificate as the public verification sees it; a viewer refused at each
 * action; every change in the audit trail as the signed-in user's, via the console.
 */
describe('console: students, the applications import and certificates', () => {
  let app: TestApp;
  let courseSlug: string;
  let courseTitle: string;
  let courseId: number;
  const tag = unique('stu')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
  const registrarIn = () => signedInStaff(app, ['registrar'], unique('Registrar'));
  const viewerIn = () => signedInStaff(app, ['viewer'], unique('Viewer'));

  const db = () => app.platform.database.db;
  const userByEmail = (email: string) => db().selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  const countOf = async (table: 'users' | 'course_applications' | 'certificates' | 'audit_events') =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const auditOf = (action: string, actorId: number) =>
    db().selectFrom('audit_events').selectAll().where('action', '=', action).where('actor_id', '=', actorId).orderBy('id').execute();
  const importsDir = () => path.join(app.platform.config.dataDir, 'console-imports');
  const keptFiles = async () => (await readdir(importsDir()).catch(() => [] as string[])).filter((name) => name.endsWith('.upload'));

  /** A multipart body as a browser sends the import form: the CSRF token first, then the file. */
  function multipart(fields: [string, string][], file?: { filename: string; type: string; content: Buffer }) {
    const boundary = `----academy${randomBytes(8).toString('hex')}`;
    const chunks: Buffer[] = [];
    for (const [name, value] of fields) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    }
    if (file) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
        ),
        file.content,
        Buffer.from('\r\n'),
      );
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    return { payload: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
  }

  /** Uploads `content` through the import form of `who`'s browser (with its CSRF token unless `csrf` says otherwise). */
  async function upload(
    who: SignedIn,
    content: Buffer,
    filename = 'students.csv',
    options: { csrf?: string | null } = {},
  ): Promise<LightMyRequestResponse> {
    const form = await who.browser.request('GET', '/console/students/import');
    assert.equal(form.statusCode, 200, form.body);
    const csrf = options.csrf === undefined ? who.browser.csrfOf(form.body) : options.csrf;
    const body = multipart(csrf === null ? [] : [['_csrf', csrf]], { filename, type: 'text/csv', content });
    return app.http.inject({
      method: 'POST',
      url: '/console/students/import',
      headers: {
        'content-type': body.type,
        cookie: [...who.browser.jar].map(([name, value]) => `${name}=${value}`).join('; '),
      },
      payload: body.payload,
      remoteAddress: who.browser.address,
    });
  }

  /** Uploads, follows to the preview page and returns it with its address. */
  async function preview(who: SignedIn, content: Buffer, filename?: string) {
    const res = await upload(who, content, filename);
    assert.equal(res.statusCode, 303, res.body);
    const location = res.headers.location as string;
    assert.match(location, /^\/console\/students\/import\/[A-Za-z0-9_-]{24}$/);
    const page = await who.browser.request('GET', location);
    assert.equal(page.statusCode, 200, page.body);
    return { location, page, text: textOf(page.body) };
  }

  /** Presses a one-button form of `page` whose action is `action`. */
  async function press(who: SignedIn, page: string, action: string, fields: Record<string, string> = {}) {
    const shown = await who.browser.request('GET', page);
    assert.ok(shown.body.includes(`action="${action}"`), `${action} is offered on ${page}`);
    return who.browser.request('POST', action, { _csrf: who.browser.csrfOf(shown.body), ...fields });
  }

  const bom = Buffer.from([0xef, 0xbb, 0xbf]);

  before(async () => {
    app = await createTestApp();
    courseSlug = `${tag}-python`;
    courseTitle = `Python for ${tag}`;
    courseId = (await fixtures(app.platform).course({ slug: courseSlug, title: courseTitle })).id;
  });

  test('without a session every page sends to the sign-in page; an upload keeps nothing', async () => {
    const anonymous = formClient(app.http);
    for (const url of [
      '/console/students',
      '/console/students/new',
      '/console/students/1',
      '/console/students/import',
      '/console/certificates',
    ]) {
      const res = await anonymous.request('GET', url);
      assert.equal(res.statusCode, 303, url);
      assert.equal(res.headers.location, `/console/sign-in?next=${encodeURIComponent(url)}`);
    }
    const token = await anonymous.csrf();
    const body = multipart([['_csrf', token]], { filename: 'a.csv', type: 'text/csv', content: Buffer.from('name,email,course\n') });
    const res = await app.http.inject({
      method: 'POST',
      url: '/console/students/import',
      headers: { 'content-type': body.type, cookie: [...anonymous.jar].map(([n, v]) => `${n}=${v}`).join('; ') },
      payload: body.payload,
      remoteAddress: anonymous.address,
    });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/console/sign-in');
    assert.deepEqual(await keptFiles(), []);
  });

  test('a registrar creates a student: 422 first on a bad email, beside the field; then searches for them', async () => {
    const registrar = await registrarIn();
    const form = await registrar.browser.request('GET', '/console/students/new');
    assert.equal(form.statusCode, 200, form.body);
    assert.match(form.body, new RegExp(`<option value="${courseSlug}">`), 'the published course is offered');

    const name = `Ada ${tag} Lovelace`;
    const email = `ada.${tag}@example.org`;
    const bad = await registrar.browser.submit('/console/students/new', '/console/students', {
      name,
      email: 'ada at example',
      course: courseSlug,
    });
    // status only: a console page (HTML, no JSON code)
    assert.equal(bad.statusCode, 422, bad.body);
    assert.ok(textOf(bad.body).includes('There is a problem'));
    assert.match(
      bad.body,
      /<p class="error" id="f-email-error"><span class="visually-hidden">Error: <\/span><span>The email field must be one email address/,
    );
    assert.match(bad.body, /id="f-email"[^>]*aria-describedby="f-email-hint f-email-error"[^>]*aria-invalid="true"/);
    assert.equal(inputValue(bad.body, 'email'), 'ada at example', 'what was typed is kept');
    assert.equal(inputValue(bad.body, 'name'), name);
    assert.match(bad.body, new RegExp(`<option value="${courseSlug}" selected>`));
    assert.equal(await userByEmail('ada at example'), undefined);

    const noCourse = await registrar.browser.submit('/console/students/new', '/console/students', { name, email, course: '' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(noCourse.statusCode, 422);
    assert.ok(textOf(noCourse.body).includes('Choose the course the student applies to.'));
    assert.equal(await userByEmail(email), undefined);

    const created = await registrar.browser.submit('/console/students/new', '/console/students', {
      name,
      email: `  ADA.${tag}@Example.org `,
      email_verified: 'true',
      course: courseSlug,
    });
    assert.equal(created.statusCode, 303, created.body);
    const user = await userByEmail(email);
    assert.ok(user, 'the email is stored normalised');
    assert.equal(created.headers.location, `/console/students/${user.id}?notice=created`);
    const page = await registrar.browser.request('GET', created.headers.location as string);
    assert.equal(page.statusCode, 200, page.body);
    const text = textOf(page.body);
    assert.ok(text.includes(`The student is created, with an application to ${courseTitle}.`), text);
    assert.ok(text.includes(email) && text.includes('Added by staff') && text.includes('Not enrolled in any session.'), text);

    const again = await registrar.browser.submit('/console/students/new', '/console/students', { name, email, course: courseSlug });
    // status only: a console page (HTML, no JSON code)
    assert.equal(again.statusCode, 422);
    assert.ok(textOf(again.body).includes(`The email ${email} is already taken by another user.`), 'the service’s rule, beside the field');

    // The list: searched by name and by email in any letter case, filtered, paged in the URL.
    const byName = await registrar.browser.request('GET', `/console/students?q=${encodeURIComponent(`${tag} LOVE`)}`);
    assert.equal(byName.statusCode, 200);
    assert.ok(byName.body.includes(`<a href="/console/students/${user.id}">${name}</a>`), 'found by name');
    const byEmail = await registrar.browser.request('GET', `/console/students?q=ADA.${tag}`);
    assert.ok(byEmail.body.includes(`>${name}</a>`), 'found by email');
    const unverified = await registrar.browser.request('GET', `/console/students?q=${encodeURIComponent(name)}&status=unverified`);
    assert.ok(textOf(unverified.body).includes('No student matches these filters.'), 'the email is confirmed');
    assert.match(unverified.body, /<option value="unverified" selected>/);

    for (const n of [1, 2]) {
      await fixtures(app.platform).student({ name: `Ada ${tag} Page${n}` });
    }
    const ada = encodeURIComponent(`Ada ${tag}`);
    const first = await registrar.browser.request('GET', `/console/students?q=${ada}&sort=name&direction=desc&per_page=2`);
    assert.ok(textOf(first.body).includes('Showing 1–2 of 3'), textOf(first.body));
    assert.match(first.body, /aria-sort="descending"/);
    const next = /<a href="([^"]+)" rel="next">/.exec(first.body)?.[1]?.replace(/&amp;/g, '&');
    assert.equal(next, `/console/students?q=Ada+${tag}&sort=name&direction=desc&per_page=2&page=2`);
    const second = await registrar.browser.request('GET', next as string);
    assert.ok(textOf(second.body).includes('Showing 3–3 of 3'));
    assert.ok(second.body.includes(`>${name}</a>`), 'Lovelace sorts last, descending: “Ada x Lovelace” < “Ada x Page…”');

    const wrong = await registrar.browser.request('GET', '/console/students?per_page=0');
    // status only: a console page (HTML, no JSON code)
    assert.equal(wrong.statusCode, 422);

    const [studentCreated] = await auditOf('student.created', registrar.user.id);
    assert.equal(studentCreated?.via, 'console');
    assert.equal(studentCreated?.actor_type, 'user');
    assert.equal(studentCreated?.subject_id, user.id);
    const [applied] = await auditOf('course_application.created', registrar.user.id);
    assert.equal(applied?.via, 'console');
  });

  test('an import: a ;-separated CSV with a BOM and a bad line is refused by line in its preview, nothing written; fixed, it imports', async () => {
    const registrar = await registrarIn();
    const existing = await fixtures(app.platform).student({ name: `Existing ${tag}` }, { courseId });
    const rows = (badEmail: string) =>
      [
        'Name;Email;Course;email_verified',
        `Grace ${tag};grace.${tag}@example.org;${courseSlug};yes`,
        `Alan ${tag};${badEmail};${courseSlug};`,
        `${existing.name};${existing.email};${courseSlug.toUpperCase()};no`,
        `Grace again ${tag};GRACE.${tag}@example.org;${courseSlug};`,
      ].join('\r\n');
    const usersBefore = await countOf('users');
    const applicationsBefore = await countOf('course_applications');

    const refused = await preview(registrar, Buffer.concat([bom, Buffer.from(rows('alan-at-example'))]), 'Anmeldungen März.csv');
    assert.ok(refused.text.includes('The file has 1 problem on 1 line; nothing is imported'), refused.text);
    assert.match(refused.page.body, /<td class="number">3<\/td><td>email<\/td><td>The email field must be one email address/);
    assert.ok(refused.text.includes('Anmeldungen März.csv'), 'the file’s name');
    assert.ok(!refused.page.body.includes('/confirm"'), 'no import offered');
    assert.equal(await countOf('users'), usersBefore, 'nothing created');
    assert.equal(await countOf('course_applications'), applicationsBefore);

    const discarded = await press(registrar, refused.location, `${refused.location}/discard`);
    assert.equal(discarded.statusCode, 303);
    assert.equal(discarded.headers.location, '/console/students/import?notice=discarded');
    // status only: a console page (HTML, no JSON code)
    assert.equal((await registrar.browser.request('GET', refused.location)).statusCode, 404, 'the file is gone');

    const fixed = await preview(registrar, Buffer.concat([bom, Buffer.from(rows(`alan.${tag}@example.org`))]));
    assert.ok(fixed.text.includes('A dry run: nothing has been written yet.'), fixed.text);
    const figure = (label: string) => new RegExp(`${label} (\\d+)`).exec(fixed.text)?.[1];
    assert.equal(figure('Rows of the file'), '4');
    assert.equal(figure('New students'), '2');
    assert.equal(figure('Existing students \\(matched by email, left unchanged\\)'), '1');
    assert.equal(figure('New applications'), '2');
    assert.equal(figure('Applications that exist already \\(skipped\\)'), '1');
    assert.equal(figure('Duplicate rows \\(the same email and course as an earlier row; skipped\\)'), '1');
    assert.equal(await userByEmail(`grace.${tag}@example.org`), undefined, 'a dry run writes nothing');

    // Another session, even of the same user, does not reach the file.
    const stranger = await registrarIn();
    // status only: a console page (HTML, no JSON code)
    assert.equal((await stranger.browser.request('GET', fixed.location)).statusCode, 404);
    const strangerConfirm = await stranger.browser.request('POST', `${fixed.location}/confirm`, {
      _csrf: stranger.browser.csrfOf((await stranger.browser.request('GET', '/console/students')).body),
    });
    // status only: a console page (HTML, no JSON code)
    assert.equal(strangerConfirm.statusCode, 404);

    const usersBeforeImport = await countOf('users');
    const confirmed = await press(registrar, fixed.location, `${fixed.location}/confirm`);
    assert.equal(confirmed.statusCode, 303, confirmed.body);
    assert.equal(confirmed.headers.location, fixed.location);
    const done = await registrar.browser.request('GET', fixed.location);
    const doneText = textOf(done.body);
    assert.ok(doneText.includes('Import finished'), doneText);
    assert.ok(doneText.includes('Imported: 2 new students and 2 new applications.'), doneText);
    const grace = await userByEmail(`grace.${tag}@example.org`);
    assert.ok(grace && Boolean(grace.email_verified), 'created, with the row’s email_verified');
    assert.ok(await userByEmail(`alan.${tag}@example.org`));
    assert.equal(await countOf('users'), usersBeforeImport + 2);
    assert.equal(await countOf('course_applications'), applicationsBefore + 2);
    assert.ok(
      !(await keptFiles()).some((name) => fixed.location.endsWith(name.replace('.upload', ''))),
      'the file is removed once imported',
    );

    const again = await registrar.browser.request('POST', `${fixed.location}/confirm`, { _csrf: registrar.browser.csrfOf(done.body) });
    assert.equal(again.statusCode, 303, 'confirming again shows the outcome');
    assert.equal(await countOf('users'), usersBeforeImport + 2, 'and imports nothing twice');

    const [imported] = await auditOf('course_application.imported', registrar.user.id);
    assert.equal(imported?.via, 'console');
    assert.equal(imported?.actor_type, 'user');
    const changes = typeof imported?.changes === 'string' ? JSON.parse(imported.changes) : imported?.changes;
    assert.deepEqual(changes.source, [null, 'students.csv']);
    assert.deepEqual(changes.students_created, [null, 2]);

    const graceRow = await registrar.browser.request('GET', `/console/students/${grace.id}`);
    assert.ok(textOf(graceRow.body).includes('Imported'), 'the application’s source on the student’s page');
  });

  test('an XLSX spreadsheet is imported the same way', async () => {
    const registrar = await registrarIn();
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Students');
    sheet.addRow(['name', 'email', 'course']);
    sheet.addRow([`Hedy ${tag}`, `hedy.${tag}@example.org`, courseSlug]);
    sheet.addRow([`Katherine ${tag}`, `katherine.${tag}@example.org`, 'no-such-course']);
    const bad = Buffer.from(await workbook.xlsx.writeBuffer());
    const refused = await preview(registrar, bad, 'students.xlsx');
    assert.ok(refused.text.includes('No course has the slug "no-such-course".'), refused.text);
    assert.match(refused.page.body, /<td class="number">3<\/td><td>course<\/td>/);
    assert.equal(await userByEmail(`hedy.${tag}@example.org`), undefined);

    sheet.getRow(3).getCell(3).value = courseSlug;
    const good = Buffer.from(await workbook.xlsx.writeBuffer());
    const fixed = await preview(registrar, good, 'students.xlsx');
    assert.ok(fixed.text.includes('New students 2'), fixed.text);
    const confirmed = await press(registrar, fixed.location, `${fixed.location}/confirm`);
    assert.equal(confirmed.statusCode, 303);
    const done = textOf((await registrar.browser.request('GET', fixed.location)).body);
    assert.ok(done.includes('Imported: 2 new students and 2 new applications.'), done);
    assert.ok(await userByEmail(`katherine.${tag}@example.org`));
  });

  test('an upload: no file is a 422 beside the field, a file over 10 MB a 413; without the CSRF token a 403; nothing kept', async () => {
    const registrar = await registrarIn();
    const kept = await keptFiles();
    const empty = await upload(registrar, Buffer.alloc(0), '');
    // status only: a console page (HTML, no JSON code)
    assert.equal(empty.statusCode, 422, empty.body);
    assert.match(empty.body, /id="f-file-error"/);
    assert.ok(textOf(empty.body).includes('Choose a CSV or XLSX file to import.'));

    const nothing = await upload(registrar, Buffer.alloc(0), 'empty.csv');
    // status only: a console page (HTML, no JSON code)
    assert.equal(nothing.statusCode, 422);
    assert.ok(textOf(nothing.body).includes('The file is empty'));

    const large = await upload(registrar, Buffer.alloc(10 * 1024 * 1024 + 10, 'a'), 'large.csv');
    // status only: a console page (HTML, no JSON code)
    assert.equal(large.statusCode, 413, large.body.slice(0, 500));
    assert.ok(textOf(large.body).includes('The file is larger than 10 MB'));

    for (const csrf of [null, 'forged']) {
      const forged = await upload(registrar, Buffer.from('name,email,course\n'), 'a.csv', { csrf });
      // status only: a console page (HTML, no JSON code)
      assert.equal(forged.statusCode, 403, String(csrf));
      assert.ok(textOf(forged.body).includes('The form has expired or did not come from this site'));
    }
    assert.deepEqual(await keptFiles(), kept, 'no file kept');

    // A file left an hour ago, never confirmed: gone, the next time an import's page is asked for.
    const id = 'LeftAnHourAgo0123456789a';
    const old = new Date(Date.now() - 61 * 60 * 1000).toISOString();
    const cookie = registrar.browser.jar.get('academy_session') as string;
    await writeFile(path.join(importsDir(), `${id}.upload`), 'name,email,course\n');
    await utimes(path.join(importsDir(), `${id}.upload`), new Date(old), new Date(old));
    await writeFile(
      path.join(importsDir(), `${id}.json`),
      JSON.stringify({
        id,
        owner: app.platform.secrets.mac('console-import', cookie),
        uploaded_at: old,
        state: 'uploaded',
        finished_at: null,
      }),
    );
    const expired = await registrar.browser.request('GET', `/console/students/import/${id}`);
    // status only: a console page (HTML, no JSON code)
    assert.equal(expired.statusCode, 404);
    assert.ok(textOf(expired.body).includes('an upload is kept for an hour'), textOf(expired.body));
    assert.deepEqual(
      (await readdir(importsDir())).filter((name) => name.startsWith(id)),
      [],
      'its files removed',
    );
  });

  test('a certificate for a passed enrolment: issued from the student’s page, valid publicly; revoked with a reason, revoked publicly', async () => {
    const registrar = await registrarIn();
    const make = fixtures(app.platform);
    const course = await make.course({ title: `Statistics ${tag}` });
    const session = await make.session({ course_id: course.id, name: `Spring intake ${tag}` });
    const student = await make.student({ name: `Mary ${tag}` }, { courseId: course.id });
    const passed = await make.enrolment({
      user_id: student.id,
      session_id: session.id,
      completion_outcome: 'passed',
      completion_recorded_at: new Date().toISOString(),
    });
    const page = `/console/students/${student.id}`;
    const shown = await registrar.browser.request('GET', page);
    assert.equal(shown.statusCode, 200, shown.body);
    const text = textOf(shown.body);
    assert.ok(text.includes(`Spring intake ${tag}, Statistics ${tag}`) && text.includes('11 Jan 2027 – 15 Jan 2027'), text);
    assert.ok(text.includes('Confirmed') && text.includes('passed'), text);

    const issued = await press(registrar, page, '/console/certificates', { enrolment_id: String(passed.id) });
    assert.equal(issued.statusCode, 303, issued.body);
    const location = issued.headers.location as string;
    assert.match(location, /^\/console\/certificates\/\d+\?notice=issued$/);
    const certificate = await db().selectFrom('certificates').selectAll().where('enrolment_id', '=', passed.id).executeTakeFirstOrThrow();
    const certificatePage = await registrar.browser.request('GET', location);
    assert.equal(certificatePage.statusCode, 200);
    const link = `/api/v1/certificates/verify/${certificate.verification_token}`;
    assert.ok(certificatePage.body.includes(`<a href="${link}">${link}</a>`), 'the public verification link');
    assert.ok(
      textOf(certificatePage.body).includes(`It says valid: Mary ${tag}, Statistics ${tag}, issued on`),
      textOf(certificatePage.body),
    );
    const publicly = await app.http.inject({ method: 'GET', url: link });
    assert.equal(publicly.statusCode, 200);
    assert.equal(publicly.json().data.status, 'valid');
    const withIt = textOf((await registrar.browser.request('GET', page)).body);
    assert.ok(withIt.includes(certificate.certificate_number) && withIt.includes('Valid'), 'on the student’s page, with its state');

    const twice = await registrar.browser.request('POST', '/console/certificates', {
      _csrf: registrar.browser.csrfOf(shown.body),
      enrolment_id: String(passed.id),
    });
    // status only: a console page (HTML, no JSON code)
    assert.equal(twice.statusCode, 409, 'one certificate per enrolment');
    assert.match(twice.body, new RegExp(`<a href="${page}">Go back</a>`));

    const certificateUrl = `/console/certificates/${certificate.id}`;
    const noReason = await press(registrar, certificateUrl, `${certificateUrl}/revoke`, { reason: '  ' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(noReason.statusCode, 422);
    assert.match(noReason.body, /id="f-reason-error"/);
    assert.ok(textOf(noReason.body).includes('The reason field must not be blank.'), textOf(noReason.body));
    const revoked = await press(registrar, certificateUrl, `${certificateUrl}/revoke`, { reason: 'Issued by mistake <b>twice</b>' });
    assert.equal(revoked.statusCode, 303, revoked.body);
    assert.equal(revoked.headers.location, `${certificateUrl}?notice=revoked`);
    const after = await registrar.browser.request('GET', revoked.headers.location as string);
    assert.ok(textOf(after.body).includes('It says revoked: '), textOf(after.body));
    assert.ok(after.body.includes('Issued by mistake &lt;b>twice&lt;/b>'), 'the reason, escaped');
    assert.ok(!after.body.includes(`${certificateUrl}/revoke`), 'no revocation offered any more');
    const revokedPublicly = await app.http.inject({ method: 'GET', url: link });
    assert.equal(revokedPublicly.json().data.status, 'revoked');

    const list = await registrar.browser.request('GET', '/console/certificates?status=revoked');
    assert.equal(list.statusCode, 200);
    assert.ok(list.body.includes(`>${certificate.certificate_number}</a>`));
    assert.ok(list.body.includes(`>Mary ${tag}</a>`), 'the holder’s name');

    for (const action of ['certificate.issued', 'certificate.revoked']) {
      const [event] = await auditOf(action, registrar.user.id);
      assert.equal(event?.via, 'console', action);
      assert.equal(event?.subject_id, certificate.id);
    }
  });

  test('a viewer reads every page but gets a 403 page at each action, and nothing changes', async () => {
    const [registrar, viewer] = await Promise.all([registrarIn(), viewerIn()]);
    const make = fixtures(app.platform);
    const student = await make.student({ name: `Viewed ${tag}` });
    const passed = await make.enrolment({
      user_id: student.id,
      completion_outcome: 'passed',
      completion_recorded_at: new Date().toISOString(),
    });
    const certificate = await make.certificate();

    const list = await viewer.browser.request('GET', `/console/students?q=${tag}`);
    assert.equal(list.statusCode, 200);
    assert.ok(!list.body.includes('New student') && !list.body.includes('Import applications'), 'no button the viewer may not use');
    const page = await viewer.browser.request('GET', `/console/students/${student.id}`);
    assert.equal(page.statusCode, 200);
    assert.ok(!page.body.includes('Issue a certificate') && textOf(page.body).includes('Not issued'));
    assert.ok(textOf((await viewer.browser.request('GET', '/console/students/new')).body).includes('needs the students.manage permission'));
    assert.ok(
      textOf((await viewer.browser.request('GET', '/console/students/import')).body).includes('needs the students.manage permission'),
    );
    const certificatePage = await viewer.browser.request('GET', `/console/certificates/${certificate.id}`);
    assert.equal(certificatePage.statusCode, 200);
    assert.ok(!certificatePage.body.includes('/revoke"'));

    const before = {
      users: await countOf('users'),
      applications: await countOf('course_applications'),
      certificates: await countOf('certificates'),
      audit: await countOf('audit_events'),
    };
    const csrf = viewer.browser.csrfOf(list.body);
    const create = await viewer.browser.request('POST', '/console/students', {
      _csrf: csrf,
      name: 'By a viewer',
      email: `viewer.${tag}@example.org`,
      course: courseSlug,
    });
    // status only: a console page (HTML, no JSON code)
    assert.equal(create.statusCode, 403, create.body);
    assert.ok(textOf(create.body).includes('This needs the students.manage permission'), textOf(create.body));
    const kept = await keptFiles();
    const uploaded = await upload(viewer, Buffer.from(`name,email,course\nV,v.${tag}@example.org,${courseSlug}\n`));
    // status only: a console page (HTML, no JSON code)
    assert.equal(uploaded.statusCode, 403, uploaded.body);
    assert.deepEqual(await keptFiles(), kept, 'the file is refused before it is kept');
    const issue = await viewer.browser.request('POST', '/console/certificates', { _csrf: csrf, enrolment_id: String(passed.id) });
    // status only: a console page (HTML, no JSON code)
    assert.equal(issue.statusCode, 403);
    assert.ok(textOf(issue.body).includes('This needs the certificates.manage permission'));
    const revoke = await viewer.browser.request('POST', `/console/certificates/${certificate.id}/revoke`, { _csrf: csrf, reason: 'No' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(revoke.statusCode, 403);

    assert.deepEqual(
      {
        users: await countOf('users'),
        applications: await countOf('course_applications'),
        certificates: await countOf('certificates'),
        audit: await countOf('audit_events'),
      },
      before,
      'nothing changed',
    );
    const stored = await db().selectFrom('certificates').select('status').where('id', '=', certificate.id).executeTakeFirstOrThrow();
    assert.equal(stored.status, 'valid');
    // The registrar sees the buttons the viewer does not.
    const registrarPage = await registrar.browser.request('GET', `/console/students/${student.id}`);
    assert.ok(registrarPage.body.includes('Issue a certificate'));
  });

  test('a student’s page: a missing or malformed id is a 404 page; times in the organization’s time zone', async () => {
    const registrar = await registrarIn();
    for (const url of ['/console/students/999999999', '/console/students/abc', '/console/certificates/0']) {
      const res = await registrar.browser.request('GET', url);
      // status only: a console page (HTML, no JSON code)
      assert.equal(res.statusCode, 404, url);
      assert.match(String(res.headers['content-type']), /^text\/html/);
    }
    const staff = await registrar.browser.request('GET', `/console/students/${registrar.user.id}`);
    // status only: a console page (HTML, no JSON code)
    assert.equal(staff.statusCode, 404, 'a staff user is no student');
    const { timezone } = await app.services.organization.get(operatorContext(app.platform));
    await app.services.organization.update(operatorContext(app.platform), { timezone: 'Asia/Tokyo' });
    const student = await fixtures(app.platform).student({ name: `Tokyo ${tag}` });
    const page = await registrar.browser.request('GET', `/console/students/${student.id}`);
    assert.match(page.body, new RegExp(`<time datetime="${student.created_at}">[^<]* GMT\\+9</time>`));
    await app.services.organization.update(operatorContext(app.platform), { timezone });
  });
});
