import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { signedInStaff, textOf } from '../support/console.ts';
import { unique } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';

/**
 * The console's audit trail (CONTRACT, "Audit trail"): a change made in the console is listed as the
 * signed-in user's, through `console`; filters by actor, record and date in the URL; only holders of
 * `audit.read` may read it.
 */
describe('console: the audit trail', () => {
  let app: TestApp;
  const tag = unique('aud')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');

  before(async () => {
    app = await createTestApp();
  });

  test('a course created in the console is listed with its creator as actor, through console', async () => {
    const coordinator = await signedInStaff(app, ['coordinator'], unique('Coordinator'));
    const administrator = await signedInStaff(app, ['administrator'], unique('Administrator'));
    const slug = `${tag}-audited`;
    const created = await coordinator.browser.submit('/console/courses/new', '/console/courses', {
      title: 'Audited',
      slug,
      code: `${tag}-A`,
      price: '10.00',
      currency: 'EUR',
      language: 'en',
    });
    assert.equal(created.statusCode, 303, created.body);
    const course = await app.platform.database.db.selectFrom('courses').select('id').where('slug', '=', slug).executeTakeFirstOrThrow();

    const trail = await administrator.browser.request('GET', `/console/audit?subject=course:${course.id}`);
    assert.equal(trail.statusCode, 200, trail.body);
    const row = /<tr>(?:(?!<\/tr>)[\s\S])*course\.created(?:(?!<\/tr>)[\s\S])*<\/tr>/.exec(trail.body)?.[0];
    assert.ok(row, `course.created listed: ${textOf(trail.body)}`);
    const text = textOf(row);
    assert.ok(text.includes(coordinator.user.name), `the coordinator acted: ${text}`);
    assert.ok(text.includes(`(user ${coordinator.user.id})`), text);
    assert.ok(text.includes(`course ${course.id}`) && text.includes(' console '), text);
    assert.ok(row.includes(`<code>slug</code>: <span>—</span> → <span>${slug}</span>`), `what changed: ${row}`);
    assert.match(row, /<time datetime="[^"]+Z">/);

    const byActor = await administrator.browser.request('GET', `/console/audit?actor_type=user&actor_id=${coordinator.user.id}`);
    assert.ok(byActor.body.includes('course.created'));
    assert.ok(byActor.body.includes('session.signed_in'), 'the sign-in too, newest first');
    assert.ok(byActor.body.indexOf('course.created') < byActor.body.indexOf('session.signed_in'), 'newest first');
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    assert.ok(
      (await administrator.browser.request('GET', `/console/audit?subject=course:${course.id}&since=${today}`)).body.includes(
        'course.created',
      ),
    );
    const later = await administrator.browser.request('GET', `/console/audit?subject=course:${course.id}&since=${tomorrow}`);
    assert.ok(textOf(later.body).includes('No change matches these filters.'));
  });

  test('filters that are not valid are shown beside their fields (422)', async () => {
    const administrator = await signedInStaff(app, ['administrator'], unique('Administrator'));
    const res = await administrator.browser.request('GET', '/console/audit?actor_type=robot&subject=Course%2012&since=2026-02-30');
    // status only: a console page (HTML, no JSON code)
    assert.equal(res.statusCode, 422);
    const text = textOf(res.body);
    assert.ok(text.includes('The actor_type field must be one of'), text);
    assert.ok(text.includes('The subject field must be a kind of record, or a kind and an id, such as course or course:12.'), text);
    assert.match(res.body, /id="f-subject"[^>]*value="Course 12"/, 'the value is kept');
    const day = await administrator.browser.request('GET', '/console/audit?since=2026-02-30');
    // status only: a console page (HTML, no JSON code)
    assert.equal(day.statusCode, 422);
    assert.ok(textOf(day.body).includes('The since field must be a date that exists'));
  });

  test('without audit.read the page is a 403 and the section is not offered', async () => {
    const coordinator = await signedInStaff(app, ['coordinator'], unique('Coordinator'));
    const home = await coordinator.browser.request('GET', '/console/courses');
    assert.ok(!home.body.includes('href="/console/audit"'), 'no Audit section');
    const res = await coordinator.browser.request('GET', '/console/audit');
    // status only: a console page (HTML, no JSON code)
    assert.equal(res.statusCode, 403);
    assert.ok(textOf(res.body).includes('This needs the audit.read permission'), textOf(res.body));
    const administrator = await signedInStaff(app, ['administrator'], unique('Administrator'));
    assert.ok((await administrator.browser.request('GET', '/console/courses')).body.includes('href="/console/audit"'));
  });
});
