import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { before, describe, test } from 'node:test';
import type { UploadPart } from '../../src/modules/documents/service.ts';
import { operatorContext } from '../../src/platform/context.ts';
import { signedInStaff, textOf } from '../support/console.ts';
import { unique } from '../support/fixtures.ts';
import { formClient } from '../support/forms.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';

/** A small PDF that a reader opens: one page saying `text`, with its cross-reference table. */
function smallPdf(text: string): Buffer {
  const content = `BT /F1 18 Tf 20 50 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 240 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((object, i) => {
    const offset = pdf.length;
    pdf += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/**
 * The console's approvals (issue 41) through its pages: the inbox of the reviews that wait on a
 * permission the user holds (unfinished, pending first, filtered by workflow, paged), an instance's
 * page with its history, and a decision with a comment; refused without the permission, nothing
 * changed; each decision in the audit trail as the user's, through the console.
 */
describe('console: approvals', () => {
  let app: TestApp;
  const tag = unique('apr')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
  const approverIn = () => signedInStaff(app, ['approver'], unique('Approver'));
  const viewerIn = () => signedInStaff(app, ['viewer'], unique('Viewer'));

  /** A course sent to review (which opens its approval); returns the approval's id. */
  async function inReview(name: string): Promise<{ id: number; slug: string; title: string }> {
    const ctx = operatorContext(app.platform);
    const slug = `${tag}-${name}`;
    const title = `${tag} ${name} course`;
    await app.services.courses.create(ctx, {
      slug,
      title,
      code: slug.toUpperCase().slice(0, 40),
      price: '100.00',
      currency: 'EUR',
      language: 'en',
    });
    await app.services.courses.transition(ctx, slug, { to_state: 'review' });
    const course = await app.platform.database.db.selectFrom('courses').select('id').where('slug', '=', slug).executeTakeFirstOrThrow();
    const instance = await app.platform.database.db
      .selectFrom('workflow_instances')
      .select('id')
      .where('subject_type', '=', 'course')
      .where('subject_id', '=', course.id)
      .executeTakeFirstOrThrow();
    return { id: instance.id, slug, title };
  }

  const instanceRow = (id: number) =>
    app.platform.database.db.selectFrom('workflow_instances').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const decisionCount = async (id: number) =>
    (await app.platform.database.db.selectFrom('workflow_decisions').select('id').where('instance_id', '=', id).execute()).length;
  /** The ids of the reviews an inbox page lists, in its order. */
  const listed = (body: string) => [...body.matchAll(/<a href="\/console\/approvals\/(\d+)">/g)].map((m) => Number(m[1]));

  before(async () => {
    app = await createTestApp();
  });

  test('without a session the pages send to the sign-in page; a decision changes nothing', async () => {
    const { id } = await inReview('anonymous');
    const anonymous = formClient(app.http);
    for (const url of ['/console/approvals', '/console/approvals?workflow=course_approval', `/console/approvals/${id}`]) {
      const res = await anonymous.request('GET', url);
      assert.equal(res.statusCode, 303, url);
      assert.equal(res.headers.location, `/console/sign-in?next=${encodeURIComponent(url)}`);
    }
    const res = await anonymous.request('POST', `/console/approvals/${id}/transition`, {
      _csrf: await anonymous.csrf(),
      to_state: 'approved',
    });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/console/sign-in');
    assert.equal((await instanceRow(id)).state, 'pending');
  });

  test('a course sent to review waits in an approver’s inbox, linked to the course; a viewer’s and a coordinator’s are empty', async () => {
    const review = await inReview('inbox');
    const [approver, viewer, coordinator] = await Promise.all([approverIn(), viewerIn(), signedInStaff(app, ['coordinator'])]);

    const inbox = await approver.browser.request('GET', '/console/approvals');
    assert.equal(inbox.statusCode, 200, inbox.body);
    assert.ok(listed(inbox.body).includes(review.id), `review #${review.id} listed: ${listed(inbox.body)}`);
    assert.ok(inbox.body.includes(`<a href="/console/courses/${review.slug}">${review.title}</a>`), 'the subject links to its course');
    assert.match(inbox.body, /<a href="\/console\/approvals" aria-current="page">Approvals<\/a>/, 'the section is shown as current');

    for (const who of [viewer, coordinator]) {
      const empty = await who.browser.request('GET', '/console/approvals');
      assert.equal(empty.statusCode, 200);
      assert.deepEqual(listed(empty.body), [], 'nothing listed');
      assert.ok(
        textOf(empty.body).includes('No approval waits on you: deciding them needs the courses.approve or documents.approve permission'),
      );
    }

    // The review's page is readable by everyone; the decision's form is only for who may decide.
    const seen = await viewer.browser.request('GET', `/console/approvals/${review.id}`);
    assert.equal(seen.statusCode, 200);
    assert.ok(textOf(seen.body).includes('Deciding needs the courses.approve permission, which you do not hold.'));
    assert.ok(!seen.body.includes('name="to_state"'));
    const shown = await approver.browser.request('GET', `/console/approvals/${review.id}`);
    assert.match(shown.body, /<select id="f-to_state" name="to_state"/);
    for (const option of ['in_review', 'approved', 'rejected']) assert.ok(shown.body.includes(`<option value="${option}"`), option);
    assert.ok(textOf(shown.body).includes('No decision yet.'));
  });

  test('an approver decides with a comment: 303 with a notice, the history shows who, when and why, the audit trail too', async () => {
    const review = await inReview('decided');
    const approver = await approverIn();
    const page = `/console/approvals/${review.id}`;
    const started = await approver.browser.submit(page, `${page}/transition`, { to_state: 'in_review', comment: '' });
    assert.equal(started.statusCode, 303, started.body);
    const decided = await approver.browser.submit(page, `${page}/transition`, {
      to_state: 'approved',
      comment: 'Content & pricing <b>fine</b> for spring.',
    });
    assert.equal(decided.statusCode, 303, decided.body);
    assert.equal(decided.headers.location, `${page}?notice=decided`);

    const after = await approver.browser.request('GET', decided.headers.location as string);
    const text = textOf(after.body);
    assert.ok(text.includes('Your decision is recorded: the course approval is now approved.'), text);
    assert.ok(text.includes('This review is finished: approved.'));
    assert.ok(text.includes('Pending → In review') && text.includes('In review → Approved'), text);
    assert.ok(text.includes(approver.user.name));
    assert.ok(after.body.includes('Content &amp; pricing &lt;b>fine&lt;/b> for spring.'), 'the comment, escaped');
    const decisions = await app.platform.database.db
      .selectFrom('workflow_decisions')
      .selectAll()
      .where('instance_id', '=', review.id)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      decisions.map((d) => [d.from_state, d.to_state, d.decided_by, d.comment]),
      [
        ['pending', 'in_review', approver.user.id, null],
        ['in_review', 'approved', approver.user.id, 'Content & pricing <b>fine</b> for spring.'],
      ],
    );
    assert.match(after.body, new RegExp(`<time datetime="${decisions[1]?.decided_at}">`), 'when, in a <time>');

    const audit = await app.platform.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('subject_type', '=', 'workflow')
      .where('subject_id', '=', review.id)
      .where('action', '=', 'workflow.transitioned')
      .orderBy('id')
      .execute();
    assert.equal(audit.length, 2);
    for (const event of audit) {
      assert.equal(event.via, 'console');
      assert.equal(event.actor_type, 'user');
      assert.equal(event.actor_id, approver.user.id);
    }

    // Finished: out of the inbox; another decision is a 409 page that leads back to the review.
    assert.ok(!listed((await approver.browser.request('GET', '/console/approvals?per_page=100')).body).includes(review.id));
    const again = await approver.browser.request('POST', `${page}/transition`, {
      _csrf: approver.browser.csrfOf(after.body),
      to_state: 'rejected',
    });
    // status only: a console page (HTML, no JSON code)
    assert.equal(again.statusCode, 409, again.body);
    assert.ok(textOf(again.body).includes('A course_approval instance cannot move from approved to rejected.'));
    assert.match(again.body, new RegExp(`<a href="${page}">Go back</a>`));
  });

  test('a decision that does not validate is a 422 with the message beside its field and the comment kept', async () => {
    const review = await inReview('invalid');
    const approver = await approverIn();
    const page = `/console/approvals/${review.id}`;
    const empty = await approver.browser.submit(page, `${page}/transition`, { to_state: '', comment: 'Why & how' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(empty.statusCode, 422, empty.body);
    assert.ok(textOf(empty.body).includes('There is a problem'));
    assert.match(empty.body, /<a href="#f-to_state">The to_state field must not be empty\.<\/a>/);
    assert.match(empty.body, /id="f-to_state"[^>]*aria-invalid="true"/);
    assert.match(empty.body, /<textarea id="f-comment"[^>]*>Why &amp; how<\/textarea>/, 'the comment kept');
    const unknown = await approver.browser.submit(page, `${page}/transition`, { to_state: 'published' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(unknown.statusCode, 422);
    assert.ok(textOf(unknown.body).includes('The to_state must be a state of course_approval'));
    const long = await approver.browser.submit(page, `${page}/transition`, { to_state: 'approved', comment: 'x'.repeat(2001) });
    // status only: a console page (HTML, no JSON code)
    assert.equal(long.statusCode, 422);
    assert.ok(textOf(long.body).includes('The comment field must be at most 2000 characters long.'));
    assert.equal((await instanceRow(review.id)).state, 'pending');
    assert.equal(await decisionCount(review.id), 0);
  });

  test('a viewer, a coordinator and a forged form get 403 pages at a decision, and nothing changes', async () => {
    const review = await inReview('refused');
    const [viewer, coordinator, approver] = await Promise.all([viewerIn(), signedInStaff(app, ['coordinator']), approverIn()]);
    const page = `/console/approvals/${review.id}`;
    for (const who of [viewer, coordinator]) {
      const res = await who.browser.submit(page, `${page}/transition`, { to_state: 'approved', comment: 'Mine now' });
      // status only: a console page (HTML, no JSON code)
      assert.equal(res.statusCode, 403, res.body);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.ok(
        textOf(res.body).includes('Deciding on a course_approval workflow needs an active user holding the courses.approve permission.'),
      );
    }
    const forged = await approver.browser.request('POST', `${page}/transition`, { _csrf: 'forged', to_state: 'approved' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(forged.statusCode, 403);
    assert.equal((await instanceRow(review.id)).state, 'pending');
    assert.equal(await decisionCount(review.id), 0);
    const missing = await approver.browser.submit(page, '/console/approvals/999999/transition', { to_state: 'approved' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(missing.statusCode, 404);
    // status only: a console page (HTML, no JSON code)
    assert.equal((await approver.browser.request('GET', '/console/approvals/0')).statusCode, 404);
    // status only: a console page (HTML, no JSON code)
    assert.equal((await approver.browser.request('GET', '/console/approvals/abc')).statusCode, 404);
  });

  test('the inbox: unfinished only, pending first, filtered by workflow and paged in the URL; a document links to its page', async () => {
    const ctx = operatorContext(app.platform);
    const pending = await inReview('order-pending');
    const reviewing = await inReview('order-reviewing');
    const approver = await approverIn();
    const page = `/console/approvals/${reviewing.id}`;
    assert.equal((await approver.browser.submit(page, `${page}/transition`, { to_state: 'in_review' })).statusCode, 303);
    const document = await app.services.documents.upload(
      ctx,
      (async function* (): AsyncGenerator<UploadPart> {
        yield { kind: 'field', name: 'type', value: 'employment_letter' };
        yield { kind: 'field', name: 'title', value: `${tag} letter` };
        yield {
          kind: 'file',
          name: 'file',
          file: { stream: Readable.from([smallPdf('Letter')]), filename: 'letter.pdf', mediaType: 'application/pdf' },
        };
      })(),
    );
    const letter = await app.services.workflows.create(ctx, { workflow: 'document_approval', subject_id: document.id });

    const all = listed((await approver.browser.request('GET', '/console/approvals?per_page=100')).body);
    const open = await app.platform.database.db
      .selectFrom('workflow_instances')
      .select(['id', 'state'])
      .where('state', 'in', ['pending', 'in_review', 'changes_requested'])
      .orderBy('id')
      .execute();
    const expected = [...open.filter((row) => row.state === 'pending'), ...open.filter((row) => row.state !== 'pending')].map(
      (row) => row.id,
    );
    assert.deepEqual(all, expected, 'every unfinished review, pending ones first, oldest first');
    assert.ok(all.indexOf(pending.id) < all.indexOf(letter.id) && all.indexOf(letter.id) < all.indexOf(reviewing.id));

    const documents = await approver.browser.request('GET', '/console/approvals?workflow=document_approval');
    assert.deepEqual(listed(documents.body), [letter.id]);
    assert.ok(documents.body.includes(`<a href="/console/documents/${document.id}">${tag} letter</a>`));
    assert.match(documents.body, /<option value="document_approval" selected>Document approval<\/option>/);
    const courses = listed((await approver.browser.request('GET', '/console/approvals?workflow=course_approval&per_page=100')).body);
    assert.ok(!courses.includes(letter.id) && courses.includes(reviewing.id));

    const second = await approver.browser.request('GET', '/console/approvals?per_page=1&page=2');
    assert.deepEqual(listed(second.body), [expected[1]]);
    assert.ok(textOf(second.body).includes(`Showing 2–2 of ${expected.length}`), textOf(second.body));
    const next = /<a href="([^"]+)" rel="next">/.exec(second.body)?.[1]?.replace(/&amp;/g, '&');
    assert.equal(next, '/console/approvals?per_page=1&page=3');

    // Who decides only documents sees only those, without a filter to choose.
    const documentsOnly = await signedInStaff(app, ['viewer'], unique('Documents approver'));
    await app.services.users.grant(ctx, documentsOnly.user.id, { permissions: ['documents.approve'] });
    const theirs = await documentsOnly.browser.request('GET', '/console/approvals');
    assert.deepEqual(listed(theirs.body), [letter.id]);
    assert.ok(!theirs.body.includes('name="workflow"'));

    const wrong = await approver.browser.request('GET', '/console/approvals?workflow=nothing');
    // status only: a console page (HTML, no JSON code)
    assert.equal(wrong.statusCode, 422);
  });
});
