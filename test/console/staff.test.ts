import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { inputValue, type SignedIn, signedInStaff, textOf } from '../support/console.ts';
import { fixtures, unique } from '../support/fixtures.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';

/**
 * The console's staff pages (issue 41, "Staff") as a browser uses them: the list and its state
 * filter; an administrator invites a new staff member (created and invited: the invitation mail
 * queued), grants roles and permissions, suspends a signed-in user (their session ends) and signs
 * one out everywhere; a viewer is refused each of these with a 403 page and nothing changes. Every
 * change is in the audit trail as the administrator's, through the console.
 */
describe('console: staff', () => {
  let app: TestApp;
  const adminIn = () => signedInStaff(app, ['administrator'], unique('Admin'));
  const tag = unique('staff')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');

  const userRow = (id: number) => app.platform.database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const openSessions = async (userId: number) =>
    (
      await app.platform.database.db
        .selectFrom('staff_sessions')
        .select('id')
        .where('user_id', '=', userId)
        .where('ended_at', 'is', null)
        .execute()
    ).length;
  /** The audit events of `subject` user, as (action, actor, via). */
  const auditOf = async (subjectId: number, actions: string[]) =>
    (
      await app.platform.database.db
        .selectFrom('audit_events')
        .select(['action', 'actor_type', 'actor_id', 'via'])
        .where('subject_type', '=', 'user')
        .where('subject_id', '=', subjectId)
        .where('action', 'in', actions)
        .orderBy('id')
        .execute()
    ).map((row) => [row.action, row.actor_type, row.actor_id, row.via]);
  /** The CSRF token of a page the browser may open. */
  const csrfOf = async (who: SignedIn, page = '/console/staff') => who.browser.csrfOf((await who.browser.request('GET', page)).body);

  before(async () => {
    app = await createTestApp();
  });

  test('an administrator invites a new staff member: created, invited, the mail queued, all in the audit trail', async () => {
    const admin = await adminIn();
    const list = await admin.browser.request('GET', '/console/staff');
    assert.equal(list.statusCode, 200, list.body);
    assert.match(list.body, /<a class="button" href="\/console\/staff\/new">Invite a staff member<\/a>/);
    const email = `${tag}.new@example.org`;

    const bad = await admin.browser.submit('/console/staff/new', '/console/staff', {
      name: 'Grace Hopper',
      email: 'not an address',
      'role:coordinator': 'on',
    });
    // status only: a console page (HTML, no JSON code)
    assert.equal(bad.statusCode, 422, bad.body);
    assert.ok(textOf(bad.body).includes('The email field must be one email address'), textOf(bad.body));
    assert.match(bad.body, /<a href="#f-email">The email field/, 'the summary links to the field');
    assert.equal(inputValue(bad.body, 'email'), 'not an address', 'what was typed is kept');
    assert.match(bad.body, /name="role:coordinator" value="on" checked/, 'the roles checked are kept');

    const invited = await admin.browser.submit('/console/staff/new', '/console/staff', {
      name: 'Grace Hopper',
      email,
      job_title: 'Registrar',
      'role:coordinator': 'on',
      'permission:audit.read': 'on',
    });
    assert.equal(invited.statusCode, 303, invited.body);
    const id = Number(/^\/console\/staff\/(\d+)\?notice=invited$/.exec(String(invited.headers.location))?.[1]);
    assert.ok(id > 0, String(invited.headers.location));
    const row = await userRow(id);
    assert.equal(row.status, 'invited');
    assert.equal(row.email, email);
    assert.deepEqual(JSON.parse(row.roles as string), ['coordinator']);
    assert.deepEqual(JSON.parse(row.permissions as string), ['audit.read']);
    const mail = await app.platform.database.db
      .selectFrom('notifications')
      .select(['type', 'status', 'recipient'])
      .where('user_id', '=', id)
      .execute();
    assert.deepEqual(mail, [{ type: 'invitation', status: 'queued', recipient: email }], 'one invitation mail, queued');
    assert.deepEqual(await auditOf(id, ['user.created', 'user.invited']), [
      ['user.created', 'user', admin.user.id, 'console'],
      ['user.invited', 'user', admin.user.id, 'console'],
    ]);

    const page = await admin.browser.request('GET', invited.headers.location as string);
    assert.equal(page.statusCode, 200, page.body);
    const text = textOf(page.body);
    assert.ok(text.includes('The user is created and the invitation is on its way.'), text);
    assert.ok(text.includes('Grace Hopper') && text.includes('Invited') && text.includes(email), text);
    assert.ok(!text.includes('Send the invitation'), 'an invited user is not invited again');
    assert.ok(text.includes('Archive (final)'));

    const taken = await admin.browser.submit('/console/staff/new', '/console/staff', { name: 'Again', email: email.toUpperCase() });
    // status only: a console page (HTML, no JSON code)
    assert.equal(taken.statusCode, 422);
    assert.ok(
      textOf(taken.body).includes(`The email ${email} is already taken by another user.`),
      'the service’s own rule, beside the field',
    );
  });

  test('roles and permissions are granted by their checkboxes; a forged name is a 422 and changes nothing', async () => {
    const admin = await adminIn();
    const member = await signedInStaff(app, ['viewer'], unique('Member'));
    const page = `/console/staff/${member.user.id}`;
    const shown = await admin.browser.request('GET', page);
    assert.equal(shown.statusCode, 200, shown.body);
    assert.match(shown.body, /name="role:viewer" value="on" checked/, 'the roles held are checked');

    const csrf = admin.browser.csrfOf(shown.body);
    const granted = await admin.browser.request('POST', `${page}/grant`, {
      _csrf: csrf,
      'role:registrar': 'on',
      'role:approver': 'on',
      'permission:audit.read': 'on',
    });
    assert.equal(granted.statusCode, 303, granted.body);
    assert.equal(granted.headers.location, `${page}?notice=granted`);
    const row = await userRow(member.user.id);
    assert.deepEqual(JSON.parse(row.roles as string), ['approver', 'registrar']);
    assert.deepEqual(JSON.parse(row.permissions as string), ['audit.read']);
    const after = await admin.browser.request('GET', granted.headers.location as string);
    assert.ok(textOf(after.body).includes('The roles and permissions are saved.'));
    assert.ok(textOf(after.body).includes('courses.approve'), 'what the user may do now');
    const grants = await auditOf(member.user.id, ['user.granted']);
    assert.deepEqual(grants.at(-1), ['user.granted', 'user', admin.user.id, 'console']);

    const forged = await admin.browser.request('POST', `${page}/grant`, { _csrf: csrf, 'role:emperor': 'on' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(forged.statusCode, 422, forged.body);
    assert.ok(textOf(forged.body).includes('The roles.0 field must be one of'), textOf(forged.body));
    assert.deepEqual(JSON.parse((await userRow(member.user.id)).roles as string), ['approver', 'registrar'], 'unchanged');

    // The member's own session now carries the permissions granted.
    const theirs = await member.browser.request('GET', '/console/audit');
    assert.equal(theirs.statusCode, 200, 'audit.read, granted directly');
  });

  test('suspending a signed-in user ends their console session; the list filters by state; reactivation', async () => {
    const admin = await adminIn();
    const member = await signedInStaff(app, ['registrar'], unique('Suspended'));
    assert.equal((await member.browser.request('GET', '/console')).statusCode, 200);
    const page = `/console/staff/${member.user.id}`;
    const shown = await admin.browser.request('GET', page);
    assert.match(shown.body, /<button type="submit" class="secondary">Suspend<\/button>/);
    assert.ok(textOf(shown.body).includes('Sign out everywhere'), 'their open session is listed');

    const suspended = await admin.browser.request('POST', `${page}/move`, { _csrf: admin.browser.csrfOf(shown.body), move: 'suspend' });
    assert.equal(suspended.statusCode, 303, suspended.body);
    assert.equal(suspended.headers.location, `${page}?notice=suspend`);
    assert.equal((await userRow(member.user.id)).status, 'suspended');
    const refused = await member.browser.request('GET', '/console');
    assert.equal(refused.statusCode, 303, 'their session has ended');
    assert.equal(refused.headers.location, '/console/sign-in?next=%2Fconsole');
    assert.equal(await openSessions(member.user.id), 0);
    assert.deepEqual(await auditOf(member.user.id, ['user.suspended']), [['user.suspended', 'user', admin.user.id, 'console']]);
    const mail = await app.platform.database.db.selectFrom('notifications').select('type').where('user_id', '=', member.user.id).execute();
    assert.deepEqual(
      mail.map((row) => row.type),
      ['suspension'],
    );

    const filtered = await admin.browser.request('GET', '/console/staff?status=suspended&per_page=100');
    assert.equal(filtered.statusCode, 200);
    assert.ok(filtered.body.includes(`>${member.user.name}</a>`), 'the suspended user is listed');
    assert.ok(!filtered.body.includes(`>${admin.user.name}</a>`), 'an active one is not');
    assert.match(filtered.body, /<option value="suspended" selected>Suspended<\/option>/);

    const again = await admin.browser.request('POST', `${page}/move`, { _csrf: await csrfOf(admin, page), move: 'suspend' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(again.statusCode, 409, 'a move the state does not allow');
    assert.match(again.body, new RegExp(`<a href="${page}">Go back</a>`));
    const back = await admin.browser.request('POST', `${page}/move`, { _csrf: await csrfOf(admin, page), move: 'reactivate' });
    assert.equal(back.statusCode, 303);
    assert.equal((await userRow(member.user.id)).status, 'active');
    assert.equal((await member.browser.request('GET', '/console')).statusCode, 303, 'the old session does not come back');

    const unknown = await admin.browser.request('POST', `${page}/move`, { _csrf: await csrfOf(admin, page), move: 'activate' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(unknown.statusCode, 422, 'the console offers no such move');
  });

  test('"Sign out everywhere" ends every session of the staff member', async () => {
    const admin = await adminIn();
    const member = await signedInStaff(app, ['coordinator'], unique('Signed'));
    const page = `/console/staff/${member.user.id}`;
    const ended = await admin.browser.request('POST', `${page}/sign-out`, { _csrf: await csrfOf(admin, page) });
    assert.equal(ended.statusCode, 303, ended.body);
    assert.equal(ended.headers.location, `${page}?notice=signed-out`);
    assert.equal(await openSessions(member.user.id), 0);
    assert.equal((await member.browser.request('GET', '/console/courses')).statusCode, 303);
    assert.equal((await userRow(member.user.id)).status, 'active', 'signed out, not suspended');
    assert.deepEqual(await auditOf(member.user.id, ['session.ended']), [['session.ended', 'user', admin.user.id, 'console']]);
    const after = await admin.browser.request('GET', ended.headers.location as string);
    assert.ok(textOf(after.body).includes('No open session.'));
  });

  test('a viewer reads the pages but gets a 403 page at every action, and nothing changes', async () => {
    const viewer = await signedInStaff(app, ['viewer'], unique('Viewer'));
    const member = await signedInStaff(app, ['registrar'], unique('Untouched'));
    const page = `/console/staff/${member.user.id}`;
    const shown = await viewer.browser.request('GET', page);
    assert.equal(shown.statusCode, 200, shown.body);
    for (const button of ['Suspend', 'Sign out everywhere', 'Save the roles and permissions']) {
      assert.ok(!shown.body.includes(`>${button}</button>`), `no ${button} button for a viewer`);
    }
    assert.ok(textOf(shown.body).includes('Roles registrar'), textOf(shown.body));
    const list = await viewer.browser.request('GET', '/console/staff');
    assert.ok(!list.body.includes('Invite a staff member'));
    const form = await viewer.browser.request('GET', '/console/staff/new');
    assert.ok(textOf(form.body).includes('needs the users.manage permission'));

    const before = await userRow(member.user.id);
    const users = async () =>
      Number(
        (
          await app.platform.database.db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const count = await users();
    const csrf = viewer.browser.csrfOf(shown.body);
    for (const [url, fields] of [
      ['/console/staff', { name: 'By a viewer', email: `${tag}.viewer@example.org`, 'role:administrator': 'on' }],
      ['/console/staff', { name: '', email: 'bad' }],
      [`${page}/move`, { move: 'suspend' }],
      [`${page}/move`, { move: 'archive' }],
      [`${page}/grant`, { 'role:administrator': 'on' }],
      [`${page}/sign-out`, {}],
    ] as const) {
      const res = await viewer.browser.request('POST', url, { _csrf: csrf, ...fields });
      // status only: a console page (HTML, no JSON code)
      assert.equal(res.statusCode, 403, `${url} ${JSON.stringify(fields)}: ${res.body.slice(0, 300)}`);
      assert.ok(textOf(res.body).includes('This needs the users.manage permission'), textOf(res.body));
      assert.match(String(res.headers['content-type']), /^text\/html/);
    }
    assert.equal(await users(), count, 'nobody created');
    assert.deepEqual(await userRow(member.user.id), before, 'the member unchanged');
    assert.equal(await openSessions(member.user.id), 1, 'their session goes on');
    const trail = await app.platform.database.db
      .selectFrom('audit_events')
      .select('action')
      .where('actor_id', '=', viewer.user.id)
      .where('action', '!=', 'session.signed_in')
      .execute();
    assert.deepEqual(trail, [], 'nothing recorded as the viewer’s');
  });

  test('a student’s id and a malformed id are the same 404 page', async () => {
    const admin = await adminIn();
    const student = await fixtures(app.platform).student();
    for (const id of [String(student.id), '0', 'abc', '99999999999']) {
      const res = await admin.browser.request('GET', `/console/staff/${id}`);
      // status only: a console page (HTML, no JSON code)
      assert.equal(res.statusCode, 404, id);
      assert.match(String(res.headers['content-type']), /^text\/html/);
    }
  });
});
