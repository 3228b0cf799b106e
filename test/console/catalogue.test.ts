import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { operatorContext } from '../../src/platform/context.ts';
import { inputValue, signedInStaff, textOf } from '../support/console.ts';
import { unique } from '../support/fixtures.ts';
import { formClient } from '../support/forms.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';

/**
 * The console's catalogue (issue 41) through its pages, as a browser uses them: the list with its
 * search, state filter, order and pages in the URL; the new course's form with the API's validation;
 * a course's page and its publication workflow; each action refused without its permission or
 * without the form's CSRF token, nothing changed.
 */
describe('console: the catalogue', () => {
  let app: TestApp;
  // A browser is limited per client address (60 pages a minute): each test signs in browsers of its own.
  const coordinatorIn = () => signedInStaff(app, ['coordinator'], unique('Coordinator'));
  const viewerIn = () => signedInStaff(app, ['viewer'], unique('Viewer'));
  const tag = unique('cat')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');

  const course = async (slug: string) =>
    app.platform.database.db.selectFrom('courses').selectAll().where('slug', '=', slug).executeTakeFirst();
  const courseCount = async () =>
    Number(
      (
        await app.platform.database.db
          .selectFrom('courses')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const fields = (slug: string, title: string) => ({
    title,
    slug,
    code: slug.toUpperCase().slice(0, 40),
    price: '450.00',
    currency: 'EUR',
    language: 'en',
    description: '',
  });

  before(async () => {
    app = await createTestApp();
  });

  test('without a session every page sends to the sign-in page, coming back to it; a POST changes nothing', async () => {
    const anonymous = formClient(app.http);
    for (const url of [
      '/console/courses',
      '/console/courses?status=draft&q=a',
      '/console/courses/new',
      '/console/courses/x',
      '/console/audit',
      '/console/search?q=a',
    ]) {
      const res = await anonymous.request('GET', url);
      assert.equal(res.statusCode, 303, url);
      assert.equal(res.headers.location, `/console/sign-in?next=${encodeURIComponent(url)}`, url);
    }
    const before = await courseCount();
    const token = await anonymous.csrf();
    const res = await anonymous.request('POST', '/console/courses', { _csrf: token, ...fields(`${tag}-anon`, 'Anonymous') });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/console/sign-in');
    assert.equal(await courseCount(), before, 'nothing created');
  });

  test('a coordinator creates a course: 422 with the field’s message beside it first, the typed values kept', async () => {
    const coordinator = await coordinatorIn();
    const form = await coordinator.browser.request('GET', '/console/courses/new');
    assert.equal(form.statusCode, 200, form.body);
    assert.equal(inputValue(form.body, 'currency'), 'EUR', 'the organization’s currency, filled in');

    const page = '/console/courses/new';
    const slug = `${tag}-project-management`;
    const bad = await coordinator.browser.submit(page, '/console/courses', { ...fields('Project Management!', ''), code: 'PM-1&2' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(bad.statusCode, 422, bad.body);
    const text = textOf(bad.body);
    assert.ok(text.includes('There is a problem'), 'an error summary');
    assert.ok(text.includes('The title field must not be empty.'), text);
    assert.ok(text.includes('The slug field must be lowercase letters and digits in words joined by single hyphens'), text);
    assert.match(bad.body, /<a href="#f-slug">The slug field/, 'the summary links to the field');
    assert.match(bad.body, /id="f-slug"[^>]*aria-describedby="f-slug-hint f-slug-error"[^>]*aria-invalid="true"/);
    assert.equal(inputValue(bad.body, 'slug'), 'Project Management!', 'what was typed is shown again');
    assert.equal(inputValue(bad.body, 'code'), 'PM-1&2');
    assert.equal(await course('project-management'), undefined);

    const taken = await coordinator.browser.submit(page, '/console/courses', fields(slug, 'Project Management'));
    assert.equal(taken.statusCode, 303, taken.body);
    assert.equal(taken.headers.location, `/console/courses/${slug}?notice=created`);
    const again = await coordinator.browser.submit(page, '/console/courses', { ...fields(slug, 'Again'), code: `${tag}-OTHER` });
    // status only: a console page (HTML, no JSON code)
    assert.equal(again.statusCode, 422);
    assert.ok(textOf(again.body).includes(`a course with the slug "${slug}" exists already`), 'the service’s own rule, beside the field');

    const shown = await coordinator.browser.request('GET', taken.headers.location as string);
    assert.equal(shown.statusCode, 200, shown.body);
    const record = textOf(shown.body);
    assert.ok(record.includes('The course is created, in draft.'));
    assert.ok(record.includes('Project Management') && record.includes('450.00 EUR') && record.includes('Draft'), record);
    assert.ok(record.includes('This course has no sessions yet.'));
    const row = await course(slug);
    assert.equal(row?.status, 'draft');
    assert.equal(row?.title, 'Project Management');
  });

  test('a coordinator edits a course’s own fields (422 first on a bad price); a viewer cannot; audited', async () => {
    const [coordinator, viewer] = await Promise.all([coordinatorIn(), viewerIn()]);
    const slug = `${tag}-edited`;
    assert.equal((await coordinator.browser.submit('/console/courses/new', '/console/courses', fields(slug, 'Before'))).statusCode, 303);
    const page = `/console/courses/${slug}`;
    const form = await coordinator.browser.request('GET', `${page}/edit`);
    assert.equal(form.statusCode, 200);
    assert.equal(inputValue(form.body, 'title'), 'Before');
    assert.equal(inputValue(form.body, 'slug'), undefined, 'the slug is not a field of the edit form');
    const edit = { title: 'After', price: '99.999', currency: 'EUR', language: 'de-at', description: 'Now with a description' };
    const bad = await coordinator.browser.request('POST', page, { _csrf: coordinator.browser.csrfOf(form.body), ...edit });
    // status only: a console page (HTML, no JSON code); the field's message is checked next
    assert.equal(bad.statusCode, 422);
    assert.ok(textOf(bad.body).includes('The price field must have at most 2 decimals for EUR'), textOf(bad.body));
    assert.equal(inputValue(bad.body, 'title'), 'After', 'what was typed is kept');
    const saved = await coordinator.browser.request('POST', page, { _csrf: coordinator.browser.csrfOf(bad.body), ...edit, price: '99.90' });
    assert.equal(saved.statusCode, 303, saved.body);
    assert.equal(saved.headers.location, `${page}?notice=saved`);
    const after = await course(slug);
    assert.equal(after?.title, 'After');
    assert.equal(after?.price_minor, 9990);
    assert.equal(after?.language, 'de-AT');
    assert.equal(after?.status, 'draft', 'its state is not touched');

    const refused = await viewer.browser.request('POST', page, {
      _csrf: viewer.browser.csrfOf((await viewer.browser.request('GET', page)).body),
      ...edit,
      title: 'Viewer',
    });
    // status only: a console page (HTML, no JSON code); its message is checked next
    assert.equal(refused.statusCode, 403);
    assert.ok(textOf(refused.body).includes('This needs the catalogue.manage permission'));
    assert.equal((await course(slug))?.title, 'After');
    const events = await app.platform.database.db
      .selectFrom('audit_events')
      .select(['action', 'actor_id', 'via', 'changes'])
      .where('action', '=', 'course.updated')
      .where('subject_id', '=', after?.id as number)
      .execute();
    assert.equal(events.length, 1);
    assert.equal(events[0]?.actor_id, coordinator.user.id);
    assert.equal(events[0]?.via, 'console');
    // JSON text on SQLite, jsonb's own spacing on PostgreSQL: compared as values.
    const changes = typeof events[0]?.changes === 'string' ? JSON.parse(events[0].changes) : events[0]?.changes;
    assert.deepEqual(changes.title, ['Before', 'After']);
    assert.deepEqual(changes.price, ['450.00', '99.90']);
  });

  test('the list: searched, filtered by state, sorted and paged in the URL; an empty state', async () => {
    const coordinator = await coordinatorIn();
    const list = `${tag}list`;
    const titles = ['Alpha', 'Bravo', 'Charlie'].map((word) => `${list} ${word}`);
    for (const title of titles) {
      const slug = title.toLowerCase().replace(/ /g, '-');
      const res = await coordinator.browser.submit('/console/courses/new', '/console/courses', fields(slug, title));
      assert.equal(res.statusCode, 303, res.body);
    }
    await app.services.courses.transition(operatorContext(app.platform), `${list}-charlie`, { to_state: 'review' });

    const searched = await coordinator.browser.request('GET', `/console/courses?q=${list.toUpperCase()}`);
    assert.equal(searched.statusCode, 200, searched.body);
    for (const title of titles) assert.ok(searched.body.includes(`>${title}</a>`), `${title} found in any letter case`);
    assert.ok(!textOf(searched.body).includes('There are no courses'));

    const inReview = await coordinator.browser.request('GET', `/console/courses?q=${list}&status=review`);
    assert.ok(inReview.body.includes(`>${list} Charlie</a>`));
    assert.ok(!inReview.body.includes(`>${list} Alpha</a>`), 'only the state asked for');
    assert.match(inReview.body, /<option value="review" selected>In review<\/option>/, 'the filter shows what it filters by');

    const published = await coordinator.browser.request('GET', `/console/courses?q=${list}&status=published`);
    assert.equal(published.statusCode, 200);
    assert.ok(textOf(published.body).includes('No course matches these filters.'), 'an empty state');
    assert.ok(published.body.includes('Clear the filters'));

    const firstPage = await coordinator.browser.request('GET', `/console/courses?q=${list}&sort=title&direction=desc&per_page=2`);
    const order = [...firstPage.body.matchAll(new RegExp(`>(${list} [A-Za-z]+)</a>`, 'g'))].map((m) => m[1]);
    assert.deepEqual(order, [`${list} Charlie`, `${list} Bravo`], 'sorted by title, descending, two a page');
    assert.match(firstPage.body, /aria-sort="descending"/);
    assert.ok(textOf(firstPage.body).includes('Showing 1–2 of 3'), textOf(firstPage.body));
    const next = /<a href="([^"]+)" rel="next">/.exec(firstPage.body)?.[1]?.replace(/&amp;/g, '&');
    assert.equal(next, `/console/courses?q=${list}&sort=title&direction=desc&per_page=2&page=2`);
    const secondPage = await coordinator.browser.request('GET', next as string);
    const rest = [...secondPage.body.matchAll(new RegExp(`>(${list} [A-Za-z]+)</a>`, 'g'))].map((m) => m[1]);
    assert.deepEqual(rest, [`${list} Alpha`]);
    assert.ok(textOf(secondPage.body).includes('Showing 3–3 of 3'));

    const wrong = await coordinator.browser.request('GET', '/console/courses?sort=colour');
    // status only: a console page (HTML, no JSON code)
    assert.equal(wrong.statusCode, 422);
    assert.ok(textOf(wrong.body).includes('The sort field must be one of: id, title, price, created_at, updated_at.'));
  });

  test('a course moves through its workflow by its page’s buttons; a move it does not allow is a 409', async () => {
    const [coordinator, approver] = await Promise.all([coordinatorIn(), signedInStaff(app, ['approver'])]);
    const slug = `${tag}-workflow`;
    assert.equal((await coordinator.browser.submit('/console/courses/new', '/console/courses', fields(slug, 'Workflow'))).statusCode, 303);
    const page = `/console/courses/${slug}`;
    const buttons = (body: string) =>
      [...body.matchAll(/<button type="submit" class="(?:primary|secondary)">([^<]+)<\/button>/g)].map((m) => m[1]);

    // The coordinator sends it to review; approving is the approver's (the coordinator is not offered it).
    for (const [who, button, to, state] of [
      [coordinator, 'Send to review', 'review', 'In review'],
      [approver, 'Approve', 'approved', 'Approved'],
      [coordinator, 'Publish', 'published', 'Published'],
      [coordinator, 'Archive (final)', 'archived', 'Archived'],
    ] as const) {
      const shown = await who.browser.request('GET', page);
      assert.ok(buttons(shown.body).includes(button), `${button} offered: ${buttons(shown.body)}`);
      if (to === 'approved') {
        const coordinatorSees = buttons((await coordinator.browser.request('GET', page)).body);
        assert.ok(!coordinatorSees.includes('Approve'), `the coordinator is not offered Approve: ${coordinatorSees}`);
      }
      const moved = await who.browser.request('POST', `${page}/transition`, {
        _csrf: who.browser.csrfOf(shown.body),
        to_state: to,
      });
      assert.equal(moved.statusCode, 303, moved.body);
      assert.equal(moved.headers.location, `${page}?notice=moved`);
      const after = await who.browser.request('GET', moved.headers.location as string);
      assert.ok(textOf(after.body).includes(`The course is now ${state.toLowerCase()}.`), textOf(after.body));
      assert.equal((await course(slug))?.status, to);
    }
    const archived = await coordinator.browser.request('GET', page);
    assert.deepEqual(buttons(archived.body), ['Search', 'Sign out'], 'an archived course has no move left');
    assert.ok(textOf(archived.body).includes('Approval pending (review #'), 'the approval opened at review is shown');

    const refused = await coordinator.browser.request('POST', `${page}/transition`, {
      _csrf: coordinator.browser.csrfOf(archived.body),
      to_state: 'draft',
    });
    // status only: a console page (HTML, no JSON code)
    assert.equal(refused.statusCode, 409);
    assert.ok(textOf(refused.body).includes('A course cannot move from archived to draft.'));
    assert.match(refused.body, new RegExp(`<a href="${page}">Go back</a>`));
    assert.equal((await course(slug))?.status, 'archived');
  });

  test('a viewer reads every page but gets a 403 page at each action, and nothing changes', async () => {
    const [coordinator, viewer] = await Promise.all([coordinatorIn(), viewerIn()]);
    const slug = `${tag}-viewer`;
    assert.equal((await coordinator.browser.submit('/console/courses/new', '/console/courses', fields(slug, 'Viewed'))).statusCode, 303);

    const list = await viewer.browser.request('GET', `/console/courses?q=${tag}`);
    assert.equal(list.statusCode, 200);
    assert.ok(list.body.includes('>Viewed</a>'));
    assert.ok(!list.body.includes('New course'), 'no button the viewer may not use');
    const shown = await viewer.browser.request('GET', `/console/courses/${slug}`);
    assert.equal(shown.statusCode, 200);
    assert.ok(!shown.body.includes('Send to review'));
    const form = await viewer.browser.request('GET', '/console/courses/new');
    assert.ok(textOf(form.body).includes('needs the catalogue.manage permission'));

    const before = await courseCount();
    const csrf = viewer.browser.csrfOf(list.body);
    const create = await viewer.browser.request('POST', '/console/courses', { _csrf: csrf, ...fields(`${tag}-by-viewer`, 'By a viewer') });
    // status only: a console page (HTML, no JSON code)
    assert.equal(create.statusCode, 403, create.body);
    assert.ok(textOf(create.body).includes('This needs the catalogue.manage permission'), textOf(create.body));
    assert.match(String(create.headers['content-type']), /^text\/html/);
    assert.equal(await courseCount(), before);

    for (const to of ['review', 'approved', 'published', 'archived']) {
      const move = await viewer.browser.request('POST', `/console/courses/${slug}/transition`, { _csrf: csrf, to_state: to });
      // status only: a console page (HTML, no JSON code)
      assert.equal(move.statusCode, 403, `${to}: ${move.body}`);
    }
    assert.equal((await course(slug))?.status, 'draft', 'nothing changed');
  });

  test('a POST without this session’s CSRF token is a 403 and changes nothing', async () => {
    const [coordinator, viewer] = await Promise.all([coordinatorIn(), viewerIn()]);
    const slug = `${tag}-csrf`;
    assert.equal((await coordinator.browser.submit('/console/courses/new', '/console/courses', fields(slug, 'Forged'))).statusCode, 303);
    const before = await courseCount();
    const other = await viewer.browser.request('GET', '/console/courses');
    for (const token of [undefined, 'forged', viewer.browser.csrfOf(other.body)]) {
      const extra: Record<string, string> = token === undefined ? {} : { _csrf: token };
      const create = await coordinator.browser.request('POST', '/console/courses', {
        ...extra,
        ...fields(`${tag}-forged`, 'Forged twice'),
      });
      // status only: a console page (HTML, no JSON code)
      assert.equal(create.statusCode, 403, `${token}: ${create.body}`);
      assert.ok(textOf(create.body).includes('The form has expired or did not come from this site'));
      const move = await coordinator.browser.request('POST', `/console/courses/${slug}/transition`, { ...extra, to_state: 'review' });
      // status only: a console page (HTML, no JSON code)
      assert.equal(move.statusCode, 403);
    }
    assert.equal(await courseCount(), before);
    assert.equal((await course(slug))?.status, 'draft');
  });

  test('pages: the sign-in pages’ headers, the hashed stylesheet kept a year, times in the organization’s time zone', async () => {
    const coordinator = await coordinatorIn();
    await app.services.organization.update(operatorContext(app.platform), { timezone: 'Asia/Tokyo' });
    const slug = `${tag}-tokyo`;
    assert.equal((await coordinator.browser.submit('/console/courses/new', '/console/courses', fields(slug, 'Tokyo'))).statusCode, 303);
    const page = await coordinator.browser.request('GET', `/console/courses/${slug}`);
    const created = (await course(slug))?.created_at as string;
    const tokyo = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', minute: '2-digit' }).format(
      new Date(created),
    );
    assert.match(page.body, new RegExp(`<time datetime="${created}">[^<]*${tokyo} GMT\\+9</time>`), 'shown in Tokyo’s time');

    const signIn = await formClient(app.http).request('GET', '/console/sign-in');
    for (const header of ['content-security-policy', 'x-frame-options', 'referrer-policy', 'cache-control', 'content-type']) {
      assert.equal(page.headers[header], signIn.headers[header], header);
    }
    assert.ok(!/<script|style="/.test(page.body), 'no script, no inline style');
    const sheet = /<link rel="stylesheet" href="(\/console\/assets\/app\.[0-9a-f]{16}\.css)"/.exec(page.body)?.[1];
    assert.ok(sheet, 'the hashed stylesheet');
    const css = await app.http.inject({ method: 'GET', url: sheet });
    assert.equal(css.statusCode, 200);
    assert.equal(css.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(String(css.headers['content-type']), /^text\/css/);
  });

  test('the search box finds a course and links to its page', async () => {
    const viewer = await viewerIn();
    const res = await viewer.browser.request('GET', `/console/search?q=${tag}-work`);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.body, new RegExp(`<a href="/console/courses/${tag}-workflow">Workflow</a>`));
    assert.equal(inputValue(res.body, 'q'), `${tag}-work`, 'the box keeps what was searched for');
    const none = await viewer.browser.request('GET', '/console/search?q=%3Cscript%3Ezzzz');
    assert.ok(none.body.includes('Nothing matches “&lt;script>zzzz”.'), 'escaped');
  });
});
