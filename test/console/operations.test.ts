import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { operatorContext } from '../../src/platform/context.ts';
import { addDays, localDate } from '../../src/platform/time.ts';
import { inputValue, type SignedIn, signedInStaff, textOf } from '../support/console.ts';
import { eventually } from '../support/eventually.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

/**
 * The console's operations, settings and home (issue 41) as a browser uses them: an administrator
 * creates a webhook endpoint (its secret shown once, on the answer only), tests it and redelivers a
 * delivery; creates an API token (shown once, working against the API), rotates and revokes it;
 * runs a scheduled task now, disables and enables it; retries a failed integration message; changes
 * the organization's time zone (the home then shows times in it; a stale form is a 412). A viewer is
 * refused every action with a 403 page and nothing changes. Each change is in the audit trail as the
 * administrator's, through the console. The home reads in a fixed number of statements.
 */
describe('console: operations, settings and home', () => {
  let app: TestApp;
  let make: Fixtures;
  let admin: SignedIn;

  const db = () => app.platform.database.db;
  const csrfOf = async (who: SignedIn, page: string) => who.browser.csrfOf((await who.browser.request('GET', page)).body);
  /** The audit events of a subject, as (action, actor type, actor id, via). */
  const auditOf = async (type: string, id: number) =>
    (
      await db()
        .selectFrom('audit_events')
        .select(['action', 'actor_type', 'actor_id', 'via'])
        .where('subject_type', '=', type)
        .where('subject_id', '=', id)
        .orderBy('id')
        .execute()
    ).map((row) => [row.action, row.actor_type, row.actor_id, row.via]);
  const byAdmin = (action: string) => [action, 'user', admin.user.id, 'console'];
  const count = async (table: 'webhook_endpoints' | 'api_tokens' | 'scheduled_task_runs' | 'webhook_deliveries') =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  before(async () => {
    app = await createTestApp({ env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true' } });
    make = fixtures(app.platform);
    admin = await signedInStaff(app, ['administrator'], unique('Operator'));
  });

  test('a webhook endpoint: its secret on the answer to the POST only, never on a later page; a test; a redelivery', async () => {
    const page = '/console/operations/webhooks';
    const bad = await admin.browser.submit(page, page, { url: 'ftp://files.example.org/in', 'event:no.such': 'on' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(bad.statusCode, 422, bad.body);
    assert.match(bad.body, /<a href="#f-url">/, 'the summary links to the field');
    assert.equal(inputValue(bad.body, 'url'), 'ftp://files.example.org/in');

    const before = await count('webhook_endpoints');
    const url = `http://127.0.0.1:9/${unique('hook')}`;
    const created = await admin.browser.submit(page, page, { url, 'event:course.published': 'on', 'event:certificate.issued': 'on' });
    assert.equal(created.statusCode, 200, 'the secret is on this answer, not after a redirect');
    assert.equal(created.headers['cache-control'], 'no-store');
    const secret = /value="(whsec_[^"]+)"/.exec(created.body)?.[1];
    assert.match(String(secret), /^whsec_[A-Za-z0-9+/=]{40,}$/);
    assert.ok(textOf(created.body).includes('shown on this page only, never again'));
    assert.equal(await count('webhook_endpoints'), before + 1);
    const endpoint = await db().selectFrom('webhook_endpoints').selectAll().where('url', '=', url).executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(String(endpoint.events)).sort(), ['certificate.issued', 'course.published']);
    assert.ok(!String(endpoint.secret).includes(String(secret)), 'stored sealed');

    for (const later of [page, `${page}/${endpoint.id}`]) {
      const shown = await admin.browser.request('GET', later);
      assert.equal(shown.statusCode, 200, later);
      assert.ok(shown.body.includes(url), later);
      assert.ok(!shown.body.includes(String(secret)), `the secret is not on ${later}`);
    }

    const deliveries = await count('webhook_deliveries');
    const tested = await admin.browser.request('POST', `${page}/${endpoint.id}/test`, { _csrf: await csrfOf(admin, page) });
    assert.equal(tested.statusCode, 303, tested.body);
    assert.equal(tested.headers.location, `${page}/${endpoint.id}?notice=tested`);
    assert.equal(await count('webhook_deliveries'), deliveries + 1, 'a ping queued');
    const shown = await admin.browser.request('GET', tested.headers.location as string);
    assert.ok(textOf(shown.body).includes('A test event (ping) is queued'));
    assert.ok(textOf(shown.body).includes('ping'), 'the ping is among the deliveries');

    const failed = await make.webhookDelivery({
      endpoint_id: endpoint.id,
      status: 'failed',
      attempts: 7,
      completed_at: new Date().toISOString(),
    });
    const again = await admin.browser.request('POST', `${page}/deliveries/${failed.id}/redeliver`, { _csrf: await csrfOf(admin, page) });
    assert.equal(again.statusCode, 303, again.body);
    assert.equal(again.headers.location, `${page}/${endpoint.id}?notice=redelivered`);
    const row = await db().selectFrom('webhook_deliveries').select('status').where('id', '=', failed.id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'pending');
    const pending = await admin.browser.request('POST', `${page}/deliveries/${failed.id}/redeliver`, { _csrf: await csrfOf(admin, page) });
    // status only: a console page (HTML, no JSON code)
    assert.equal(pending.statusCode, 409, 'a pending delivery has its attempt queued already');

    assert.deepEqual(await auditOf('webhook_endpoint', endpoint.id), [
      byAdmin('webhook_endpoint.created'),
      byAdmin('webhook_endpoint.tested'),
    ]);
    assert.deepEqual(await auditOf('webhook_delivery', failed.id), [byAdmin('webhook_delivery.redelivered')]);
  });

  test('an API token: shown once, works against the API for its scopes, rotated, then revoked (the API answers 401)', async () => {
    const page = '/console/operations/tokens';
    const none = await admin.browser.submit(page, page, { name: 'x' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(none.statusCode, 422);
    assert.ok(textOf(none.body).includes('At least one scope is required.'), textOf(none.body));

    const name = unique('crm-sync');
    const created = await admin.browser.submit(page, page, {
      name,
      'scope:courses:read': 'on',
      user_id: String(admin.user.id),
      expires_in_days: '30',
    });
    assert.equal(created.statusCode, 200, created.body);
    assert.equal(created.headers['cache-control'], 'no-store');
    const token = /value="(acd_[A-Za-z0-9_-]+)"/.exec(created.body)?.[1] as string;
    assert.ok(token, 'the token is on the answer');
    const record = await db().selectFrom('api_tokens').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
    assert.equal(record.user_id, admin.user.id, 'it acts for the user chosen');
    assert.deepEqual(JSON.parse(record.scopes), ['courses:read']);
    assert.ok(!JSON.stringify(record).includes(token), 'only its hash is kept');

    const list = await admin.browser.request('GET', page);
    assert.ok(list.body.includes(name), 'listed by name');
    assert.ok(!list.body.includes(token), 'never shown again');

    const api = (secret: string, url = '/api/v1/courses') => app.http.inject({ method: 'GET', url, headers: bearer(secret) });
    assert.equal((await api(token)).statusCode, 200, 'it works against the API');
    // status only: a console page (HTML, no JSON code)
    assert.equal((await api(token, '/api/v1/users')).statusCode, 403, 'for its scopes only');

    const rotated = await admin.browser.request('POST', `${page}/${record.id}/rotate`, { _csrf: admin.browser.csrfOf(list.body) });
    assert.equal(rotated.statusCode, 200, rotated.body);
    const replacement = /value="(acd_[A-Za-z0-9_-]+)"/.exec(rotated.body)?.[1] as string;
    assert.ok(replacement && replacement !== token);
    await eventually(async () => (await api(token)).statusCode === 401, { what: 'the old token refused' });
    assert.equal((await api(replacement)).statusCode, 200);

    const next = await db()
      .selectFrom('api_tokens')
      .select('id')
      .where('name', '=', name)
      .where('revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    const revoked = await admin.browser.request('POST', `${page}/${next.id}/revoke`, { _csrf: await csrfOf(admin, page) });
    assert.equal(revoked.statusCode, 303, revoked.body);
    assert.equal(revoked.headers.location, `${page}?notice=revoked`);
    await eventually(async () => (await api(replacement)).statusCode === 401, { what: 'the revoked token refused' });
    const again = await admin.browser.request('POST', `${page}/${next.id}/rotate`, { _csrf: await csrfOf(admin, page) });
    // status only: a console page (HTML, no JSON code)
    assert.equal(again.statusCode, 422, 'a revoked token cannot be rotated');

    assert.deepEqual(await auditOf('token', record.id), [byAdmin('token.created'), byAdmin('token.rotated')]);
    assert.deepEqual(await auditOf('token', next.id), [byAdmin('token.revoked')]);
  });

  test('a scheduled task is run now, disabled (then it cannot run) and enabled; the job queue is shown', async () => {
    const task =
      (await db().selectFrom('scheduled_tasks').selectAll().where('task_type', '=', 'audit.prune').executeTakeFirst()) ??
      (await db().selectFrom('scheduled_tasks').selectAll().orderBy('id').executeTakeFirstOrThrow());
    const overview = await admin.browser.request('GET', '/console/operations');
    assert.equal(overview.statusCode, 200, overview.body);
    assert.ok(overview.body.includes(`href="/console/operations/tasks/${task.id}"`));
    assert.ok(textOf(overview.body).includes('Job queue'));
    const page = `/console/operations/tasks/${task.id}`;

    const runs = await count('scheduled_task_runs');
    const run = await admin.browser.request('POST', `${page}/run`, { _csrf: admin.browser.csrfOf(overview.body) });
    assert.equal(run.statusCode, 303, run.body);
    assert.equal(run.headers.location, `${page}?notice=queued`);
    assert.equal(await count('scheduled_task_runs'), runs + 1);
    const queued = await db()
      .selectFrom('scheduled_task_runs')
      .selectAll()
      .where('task_id', '=', task.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    assert.equal(queued.trigger, 'manual');
    const shown = await admin.browser.request('GET', run.headers.location as string);
    assert.ok(textOf(shown.body).includes('A run is queued'));
    assert.ok(textOf(shown.body).includes('manual'), 'the run among the recent runs');

    const off = await admin.browser.request('POST', `${page}/disable`, { _csrf: await csrfOf(admin, page) });
    assert.equal(off.statusCode, 303);
    const disabled = await db()
      .selectFrom('scheduled_tasks')
      .select(['enabled', 'next_run_at'])
      .where('id', '=', task.id)
      .executeTakeFirstOrThrow();
    assert.equal(Boolean(disabled.enabled), false);
    const refused = await admin.browser.request('POST', `${page}/run`, { _csrf: await csrfOf(admin, page) });
    // status only: a console page (HTML, no JSON code)
    assert.equal(refused.statusCode, 409, 'a disabled task cannot run');
    const on = await admin.browser.request('POST', `${page}/enable`, { _csrf: await csrfOf(admin, page) });
    assert.equal(on.statusCode, 303);
    assert.equal(
      Boolean((await db().selectFrom('scheduled_tasks').select('enabled').where('id', '=', task.id).executeTakeFirstOrThrow()).enabled),
      true,
    );
    assert.deepEqual(await auditOf('task', task.id), [byAdmin('task.run_requested'), byAdmin('task.disabled'), byAdmin('task.enabled')]);
  });

  test('a failed integration message is listed and retried', async () => {
    const message = await make.integrationMessage({
      status: 'failed',
      attempts: 5,
      last_error: 'HTTP 500',
      failed_at: new Date().toISOString(),
    });
    const page = '/console/operations/messages';
    const list = await admin.browser.request('GET', page);
    assert.equal(list.statusCode, 200, list.body);
    assert.ok(list.body.includes(`action="${page}/${message.id}/retry"`), 'failed ones are listed with Retry');
    const retried = await admin.browser.request('POST', `${page}/${message.id}/retry`, { _csrf: admin.browser.csrfOf(list.body) });
    assert.equal(retried.statusCode, 303, retried.body);
    assert.equal(retried.headers.location, `${page}?notice=retried`);
    const row = await db()
      .selectFrom('integration_messages')
      .select(['status', 'attempts'])
      .where('id', '=', message.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual({ ...row, attempts: Number(row.attempts) }, { status: 'queued', attempts: 0 });
    const after = await admin.browser.request('GET', retried.headers.location as string);
    assert.ok(!after.body.includes(`action="${page}/${message.id}/retry"`), 'no longer failed');
    const all = await admin.browser.request('GET', `${page}?status=`);
    assert.ok(all.body.includes(message.integration_key), 'any state');
    assert.deepEqual(await auditOf('integration_message', message.id), [byAdmin('integration_message.retried')]);
  });

  test('the health page runs the checks', async () => {
    const res = await admin.browser.request('GET', '/console/operations/health');
    assert.equal(res.statusCode, 200, res.body);
    assert.match(textOf(res.body), /Overall: (Passing|Warning|Failing)/);
    assert.ok(textOf(res.body).includes('database'));
  });

  test('the home reads in a fixed number of statements, however much there is to show', async () => {
    const executor = db().getExecutor() as { compileQuery: (...args: never[]) => unknown };
    const compile = executor.compileQuery.bind(executor);
    let statements = 0;
    executor.compileQuery = (...args) => {
      // The change feed's own look-ups (PostgreSQL's listener, in the background) are not the page's.
      if (!/src\/(platform\/changes|db\/listen)\.ts/.test(new Error().stack ?? '')) statements++;
      return compile(...args);
    };
    const home = async () => {
      const start = statements;
      const res = await admin.browser.request('GET', '/console');
      assert.equal(res.statusCode, 200, res.body);
      return { res, statements: statements - start };
    };
    try {
      await home();
      const few = await home();

      const { timezone } = await app.services.organization.get(operatorContext(app.platform));
      const today = localDate(app.platform.clock.now(), timezone);
      const course = await make.course({ title: 'Home course' });
      for (let i = 0; i < 25; i++) {
        await make.session({
          course_id: course.id,
          name: `Home intake ${i}`,
          starts_on: addDays(today, i % 7),
          ends_on: addDays(today, 10),
          max_participants: 10,
          confirmed_count: 10,
          waitlisted_count: i % 3,
        });
      }
      for (let i = 0; i < 3; i++) await make.workflow();
      for (let i = 0; i < 4; i++) {
        await make.webhookDelivery({ status: 'failed', completed_at: new Date().toISOString() });
        await make.integrationMessage({ status: 'failed' });
      }
      const many = await home();
      assert.equal(many.statements, few.statements, `the same statements with more to show (${few.statements})`);
      assert.ok(few.statements <= 12, `${few.statements} statements`);

      const text = textOf(many.res.body);
      assert.match(text, /Waiting for your decision: \d+ course approvals?/);
      assert.ok(text.includes('The first 20 of'), text);
      assert.ok(text.includes('Home intake 0') && text.includes('100 %'), 'sessions and their fill');
      assert.match(text, /\d+ students wait for a seat in \d+ sessions/);
      assert.match(text, /[1-9]\d* webhook deliver(y|ies) failed in the last 7 days/);
      assert.match(text, /[1-9]\d* integration messages? ha(s|ve) failed/);
    } finally {
      executor.compileQuery = compile;
    }
  });

  test('the organization’s time zone is changed by the settings form; the home shows times in it; a stale form is a 412', async () => {
    const page = '/console/settings';
    const form = await admin.browser.request('GET', page);
    assert.equal(form.statusCode, 200, form.body);
    const fields = (body: string) => ({
      _csrf: admin.browser.csrfOf(body),
      version: inputValue(body, 'version') as string,
      name: inputValue(body, 'name') as string,
      legal_name: inputValue(body, 'legal_name') ?? '',
      timezone: /<option value="([^"]+)" selected>/.exec(body)?.[1] as string,
      locale: inputValue(body, 'locale') as string,
      currency: inputValue(body, 'currency') as string,
      contact_email: inputValue(body, 'contact_email') ?? '',
      phone: inputValue(body, 'phone') ?? '',
      website: inputValue(body, 'website') ?? '',
      'address.country': inputValue(body, 'address.country') ?? '',
    });
    const shown = fields(form.body);
    assert.ok(shown.version && shown.timezone, JSON.stringify(shown));

    const bad = await admin.browser.request('POST', page, { ...shown, 'address.country': 'de', currency: 'EURO' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(bad.statusCode, 422, bad.body);
    assert.ok(textOf(bad.body).includes('The address.country field'), textOf(bad.body));
    assert.match(bad.body, /<a href="#f-address-country">/);
    assert.equal(inputValue(bad.body, 'currency'), 'EURO', 'what was typed is kept');

    const saved = await admin.browser.request('POST', page, { ...shown, timezone: 'Asia/Tokyo', name: 'Academy of Tokyo' });
    assert.equal(saved.statusCode, 303, saved.body);
    assert.equal(saved.headers.location, `${page}?notice=saved`);
    const organization = await db().selectFrom('organization').selectAll().executeTakeFirstOrThrow();
    assert.equal(organization.timezone, 'Asia/Tokyo');
    assert.equal(organization.name, 'Academy of Tokyo');
    const events = await db()
      .selectFrom('audit_events')
      .select(['actor_type', 'actor_id', 'via', 'changes'])
      .where('action', '=', 'organization.updated')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    assert.deepEqual([events.actor_type, events.actor_id, events.via], ['user', admin.user.id, 'console']);
    assert.deepEqual(Object.keys(JSON.parse(String(events.changes))).sort(), ['name', 'timezone'], 'only what changed');

    const home = await admin.browser.request('GET', '/console');
    assert.match(home.body, /<time datetime="[^"]+">[^<]*GMT\+9<\/time>/, 'the home shows times in Tokyo’s time');

    // The form shown before the change, sent now: someone changed the settings meanwhile.
    const stale = await admin.browser.request('POST', page, { ...shown, name: 'Stale name' });
    // status only: a console page (HTML, no JSON code)
    assert.equal(stale.statusCode, 412, stale.body);
    assert.ok(textOf(stale.body).includes('Someone changed the settings while you were editing them'));
    assert.equal(inputValue(stale.body, 'name'), 'Academy of Tokyo', 'the settings as they are now');
    assert.equal((await db().selectFrom('organization').select('name').executeTakeFirstOrThrow()).name, 'Academy of Tokyo');

    const unchanged = await admin.browser.request('POST', page, fields((await admin.browser.request('GET', page)).body));
    assert.equal(unchanged.headers.location, `${page}?notice=unchanged`);
  });

  test('a viewer reads every page but gets a 403 page at each action, and nothing changes', async () => {
    const viewer = await signedInStaff(app, ['viewer'], unique('Viewer'));
    for (const url of [
      '/console',
      '/console/operations',
      '/console/operations/messages',
      '/console/operations/webhooks',
      '/console/operations/tokens',
      '/console/settings',
      '/console/staff',
    ]) {
      const res = await viewer.browser.request('GET', url);
      assert.equal(res.statusCode, 200, `${url}: ${res.body.slice(0, 200)}`);
      assert.ok(!/<button type="submit" class="(primary|secondary)">(Run|Retry|Rotate|Revoke|Create|Save|Send a test)/.test(res.body), url);
    }
    const endpoint = await make.webhookEndpoint();
    const delivery = await make.webhookDelivery({ endpoint_id: endpoint.id, status: 'failed', completed_at: new Date().toISOString() });
    const message = await make.integrationMessage({ status: 'failed' });
    const token = await make.token(['courses:read']);
    const task = await db().selectFrom('scheduled_tasks').select('id').orderBy('id').executeTakeFirstOrThrow();
    const snapshot = async () => ({
      endpoints: await count('webhook_endpoints'),
      deliveries: await db().selectFrom('webhook_deliveries').select(['id', 'status']).orderBy('id').execute(),
      tokens: await db().selectFrom('api_tokens').select(['id', 'revoked_at']).orderBy('id').execute(),
      runs: await count('scheduled_task_runs'),
      tasks: await db().selectFrom('scheduled_tasks').select(['id', 'enabled']).orderBy('id').execute(),
      message: await db().selectFrom('integration_messages').select('status').where('id', '=', message.id).executeTakeFirstOrThrow(),
      organization: await db().selectFrom('organization').selectAll().executeTakeFirstOrThrow(),
    });
    const before = await snapshot();
    const csrf = await csrfOf(viewer, '/console/operations');
    for (const [url, fields, permission] of [
      ['/console/operations/webhooks', { url: 'http://127.0.0.1:9/viewer' }, 'integrations.manage'],
      [`/console/operations/webhooks/${endpoint.id}/test`, {}, 'integrations.manage'],
      [`/console/operations/webhooks/deliveries/${delivery.id}/redeliver`, {}, 'integrations.manage'],
      ['/console/operations/tokens', { name: 'viewer', 'scope:*': 'on' }, 'integrations.manage'],
      [`/console/operations/tokens/${token.id}/revoke`, {}, 'integrations.manage'],
      [`/console/operations/tokens/${token.id}/rotate`, {}, 'integrations.manage'],
      [`/console/operations/tasks/${task.id}/run`, {}, 'operations.manage'],
      [`/console/operations/tasks/${task.id}/disable`, {}, 'operations.manage'],
      [`/console/operations/tasks/${task.id}/enable`, {}, 'operations.manage'],
      [`/console/operations/messages/${message.id}/retry`, {}, 'operations.manage'],
      ['/console/settings', { name: 'By a viewer', timezone: 'UTC', locale: 'en', currency: 'EUR', version: 'x' }, 'operations.manage'],
    ] as const) {
      const res = await viewer.browser.request('POST', url, { _csrf: csrf, ...fields });
      // status only: a console page (HTML, no JSON code)
      assert.equal(res.statusCode, 403, `${url}: ${res.body.slice(0, 300)}`);
      assert.ok(textOf(res.body).includes(`This needs the ${permission} permission`), `${url}: ${textOf(res.body)}`);
    }
    assert.deepEqual(await snapshot(), before, 'nothing changed');
    const trail = await db()
      .selectFrom('audit_events')
      .select('action')
      .where('actor_id', '=', viewer.user.id)
      .where('action', '!=', 'session.signed_in')
      .execute();
    assert.deepEqual(trail, [], 'nothing recorded as the viewer’s');
  });
});
