import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import pino from 'pino';
import { auditModule } from '../../src/modules/audit/module.ts';
import { audit } from '../../src/platform/audit.ts';
import { operatorContext } from '../../src/platform/context.ts';
import { runCli } from '../support/cli.ts';
import { secretKeyEnv } from '../support/env.ts';
import { assertError } from '../support/errors.ts';
import { eventually } from '../support/eventually.ts';
import { fixtures } from '../support/fixtures.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';

interface AuditEvent {
  id: number;
  occurred_at: string;
  actor_type: string;
  actor_id: number | null;
  actor_name: string | null;
  action: string;
  subject_type: string;
  subject_id: number | null;
  via: string;
  request_id: string | null;
  ip: string | null;
  changes: Record<string, [unknown, unknown]> | null;
}

describe('the audit trail', () => {
  let app: TestApp;
  let f: ReturnType<typeof fixtures>;
  let reader: string;
  let env: Record<string, string>;

  before(async () => {
    app = await createTestApp({ env: { ACADEMY_ALLOW_PRIVATE_TARGETS: 'true' } });
    f = fixtures(app.platform);
    reader = await app.token(['audit:read']);
    env = { DATABASE_URL: app.platform.database.url, ACADEMY_DATA_DIR: app.platform.config.dataDir, ...secretKeyEnv };
  });

  const list = (query: string, token = reader) =>
    app.http.inject({ method: 'GET', url: `/api/v1/audit-events?${query}`, headers: bearer(token) });
  const events = async (query: string): Promise<{ data: AuditEvent[]; meta: { total: number } }> => {
    const res = await list(query);
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const ofSubject = async (type: string, id: number) => (await events(`subject_type=${type}&subject_id=${id}&per_page=100`)).data;
  const admin = async (...args: string[]) => {
    const result = await runCli(['--json', 'admin', ...args], env);
    assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  };

  test('a change through the API is the token’s, via api, with its request id, address and what changed', async () => {
    const token = await f.token(['organization:write']);
    const name = (await app.platform.tokens.list()).find((t) => t.id === token.id)?.name;
    const before = (await app.services.organization.get(operatorContext(app.platform))).name;
    const res = await app.http.inject({
      method: 'PATCH',
      url: '/api/v1/organization',
      headers: bearer(token.secret),
      payload: { name: 'Audited Academy' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const requestId = res.headers['x-request-id'];

    const found = (await ofSubject('organization', 1)).filter((e) => e.request_id === requestId);
    assert.equal(found.length, 1, 'exactly one event for the change');
    const [event] = found as [AuditEvent];
    assert.deepEqual(
      {
        actor_type: event.actor_type,
        actor_id: event.actor_id,
        actor_name: event.actor_name,
        action: event.action,
        via: event.via,
        ip: event.ip,
        changes: event.changes,
      },
      {
        actor_type: 'token',
        actor_id: token.id,
        actor_name: name,
        action: 'organization.updated',
        via: 'api',
        ip: '127.0.0.1',
        changes: { name: [before, 'Audited Academy'] },
      },
    );
  });

  test('a token acting for a user is still the token; its name says for whom', async () => {
    const user = await f.staff({ name: 'Priya Shah', roles: '["administrator"]' });
    const token = await f.token(['organization:write'], { userId: user.id });
    const res = await app.http.inject({
      method: 'PATCH',
      url: '/api/v1/organization',
      headers: bearer(token.secret),
      payload: { phone: '+44 20 7946 0999' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const [event] = (await ofSubject('organization', 1)).filter((e) => e.request_id === res.headers['x-request-id']);
    assert.equal(event?.actor_type, 'token');
    assert.equal(event?.actor_id, token.id);
    assert.match(event?.actor_name ?? '', / \(for Priya Shah\)$/);
  });

  test('a change with academy admin is the operator’s, via cli; audit list --subject shows it', async () => {
    const course = await admin(
      'courses',
      'create',
      '--data',
      JSON.stringify({ slug: 'audited-cpr', title: 'CPR', code: 'AUD-1', price: '99.50', currency: 'EUR', language: 'en' }),
    );
    const [created, ...others] = await ofSubject('course', course.id);
    assert.equal(others.length, 0, 'exactly one event for the change');
    assert.deepEqual(
      [created?.action, created?.actor_type, created?.actor_id, created?.actor_name, created?.via, created?.request_id, created?.ip],
      ['course.created', 'operator', null, 'operator', 'cli', null, null],
    );
    assert.deepEqual(created?.changes?.slug, [null, 'audited-cpr']);
    assert.deepEqual(created?.changes?.price, [null, '99.50']);

    await admin('courses', 'transition', 'audited-cpr', '--data', JSON.stringify({ to_state: 'review' }));
    const listed = (await admin('audit', 'list', '--subject', `course:${course.id}`)) as AuditEvent[];
    assert.deepEqual(
      listed.map((e) => [e.action, e.changes?.status]),
      [
        ['course.transitioned', ['draft', 'review']],
        ['course.created', [null, 'draft']],
      ],
      'newest first',
    );
    const byOperator = (await admin(
      'audit',
      'list',
      '--actor-type',
      'operator',
      '--since',
      created?.occurred_at as string,
    )) as AuditEvent[];
    assert.ok(byOperator.some((e) => e.id === created?.id));
    assert.ok(byOperator.every((e) => e.actor_type === 'operator'));

    const bad = await runCli(['--json', 'admin', 'audit', 'list', '--subject', 'course:abc'], env);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--subject must be TYPE or TYPE:ID/);
  });

  test('a change by a job is the system’s, via job, traced to the request that queued it', async (t) => {
    const session = await f.session({
      workflow_state: 'scheduled',
      registration_opens_at: '2020-01-01T00:00:00.000Z',
      starts_on: '2099-01-01',
      ends_on: '2099-01-02',
    });
    const task = await app.platform.database.db
      .selectFrom('scheduled_tasks')
      .select('id')
      .where('task_type', '=', 'sessions.advance')
      .executeTakeFirstOrThrow();
    const operations = await f.token(['tasks:write']);
    const run = await app.http.inject({ method: 'POST', url: `/api/v1/tasks/${task.id}/run`, headers: bearer(operations.secret) });
    assert.equal(run.statusCode, 202, run.body);
    const requestId = run.headers['x-request-id'];

    const worker = app.platform.createWorker({ pollMs: 50 });
    await worker.start();
    t.after(() => worker.stop(2000));
    const moved = await eventually(async () => (await ofSubject('session', session.id)).at(0), { what: 'the session’s move' });
    assert.deepEqual(
      [moved.action, moved.actor_type, moved.actor_id, moved.actor_name, moved.via, moved.request_id, moved.ip, moved.changes],
      [
        'session.transitioned',
        'system',
        null,
        'system',
        'job',
        requestId,
        null,
        { workflow_state: ['scheduled', 'open_for_registration'] },
      ],
    );
    const asked = (await ofSubject('task', task.id)).filter((e) => e.request_id === requestId);
    assert.deepEqual(
      asked.map((e) => [e.action, e.actor_type, e.actor_id, e.via]),
      [['task.run_requested', 'token', operations.id, 'api']],
    );
    assert.equal((await ofSubject('session', session.id)).length, 1, 'exactly one event for the move');
  });

  test('a change that is rolled back leaves no event; the same change committed leaves one', async () => {
    const integration = await f.integration({ enabled: false });
    const message = await f.integrationMessage({
      integration_id: integration.id,
      status: 'failed',
      attempts: 5,
      failed_at: app.platform.clock.now().toISOString(),
    });
    const writer = await f.token(['integration-messages:write']);
    const retry = () =>
      app.http.inject({ method: 'POST', url: `/api/v1/integrations/${message.id}/retry`, headers: bearer(writer.secret) });

    // The retry is moved and recorded, then refused (the integration is disabled) in the same transaction.
    assertError(await retry(), 409, 'not_retryable');
    assert.deepEqual(await ofSubject('integration_message', message.id), []);

    await app.services.integrations.setEnabled(operatorContext(app.platform), integration.key, true);
    const res = await retry();
    assert.equal(res.statusCode, 202, res.body);
    const recorded = await ofSubject('integration_message', message.id);
    assert.deepEqual(
      recorded.map((e) => [e.action, e.actor_id, e.request_id, e.changes?.status]),
      [['integration_message.retried', writer.id, res.headers['x-request-id'], ['failed', 'queued']]],
    );
    const enabled = await ofSubject('integration', integration.id);
    assert.deepEqual(
      enabled.map((e) => [e.action, e.actor_type, e.changes]),
      [['integration.enabled', 'operator', { enabled: [false, true] }]],
    );
  });

  test('a webhook endpoint’s secret and an integration’s credential never appear', async () => {
    const ctx = operatorContext(app.platform);
    const { endpoint, secret } = await app.services.webhooks.create(ctx, { url: 'http://127.0.0.1:9/hooks' });
    const credential = 'Bearer sk-live-4f7c2d9e0b1a6c3f';
    const integration = await app.services.integrations.create(ctx, {
      key: 'audited-crm',
      name: 'Audited CRM',
      url: 'http://127.0.0.1:9/inbox',
      auth_header: credential,
    });

    const [created] = await ofSubject('webhook_endpoint', endpoint.id);
    assert.equal(created?.action, 'webhook_endpoint.created');
    assert.deepEqual(created?.changes?.url, [null, 'http://127.0.0.1:9/hooks']);
    assert.equal(created?.changes?.secret, undefined, 'the secret is left out, not masked');
    const [configured] = await ofSubject('integration', integration.id);
    assert.equal(configured?.action, 'integration.created');
    assert.equal(configured?.changes?.auth_header, undefined);

    const everything = await list('per_page=100');
    for (const text of [secret, secret.slice('whsec_'.length), credential, 'sk-live-4f7c2d9e0b1a6c3f']) {
      assert.ok(!everything.body.includes(text), 'no answer shows it');
    }
    const stored = await app.platform.database.db.selectFrom('audit_events').select('changes').execute();
    assert.ok(!JSON.stringify(stored).includes('sk-live-4f7c2d9e0b1a6c3f'), 'nor is it stored');
    assert.ok(!JSON.stringify(stored).includes(secret.slice('whsec_'.length)));
  });

  test('audit.changes: field by field, without secrets or updated_at', () => {
    assert.deepEqual(
      audit.changes(
        { name: 'A', title: 'T', password_hash: 'x', updated_at: '1', nested: { a: 1 } },
        { name: 'B', title: 'T', password_hash: 'y', updated_at: '2', nested: { a: 2 } },
      ),
      { name: ['A', 'B'], nested: [{ a: 1 }, { a: 2 }] },
    );
    assert.deepEqual(audit.changes(null, { id: 3, client_secret: 's', auth_token: 't', config: { api_key_secret: 'k', region: 'eu' } }), {
      id: [null, 3],
      config: [null, { region: 'eu' }],
    });
    assert.deepEqual(audit.changes({ name: 'A', title: 'T' }, { title: 'U' }), { title: ['T', 'U'] }, 'a partial after: only its fields');
  });

  test('filters, the default order (newest first) and bad values', async () => {
    const all = await events('per_page=100');
    const ids = all.data.map((e) => e.id);
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => b - a),
      'newest first',
    );
    const ascending = (await events('sort=occurred_at&direction=asc&per_page=100')).data.map((e) => e.id);
    assert.deepEqual(ascending, [...ids].reverse());

    const operator = await events('actor_type=operator&per_page=100');
    assert.ok(operator.data.length > 0);
    assert.ok(operator.data.every((e) => e.actor_type === 'operator'));
    const token = all.data.find((e) => e.actor_type === 'token') as AuditEvent;
    const byToken = await events(`actor_type=token&actor_id=${token.actor_id}&per_page=100`);
    assert.ok(byToken.data.every((e) => e.actor_type === 'token' && e.actor_id === token.actor_id));
    assert.ok(byToken.data.some((e) => e.id === token.id));
    const actions = await events('action=course.created');
    assert.ok(actions.data.length > 0 && actions.data.every((e) => e.action === 'course.created'));
    const latest = all.data[0] as AuditEvent;
    const since = await events(`since=${encodeURIComponent(latest.occurred_at)}&per_page=100`);
    assert.ok(since.data.some((e) => e.id === latest.id));
    assert.ok(since.data.every((e) => e.occurred_at >= latest.occurred_at));
    assert.equal((await events('since=2999-01-01T00:00:00Z')).meta.total, 0);
    const paged = await events('per_page=2&page=1');
    assert.equal(paged.data.length, 2);
    assert.equal(paged.meta.total, all.meta.total);

    assertError(await list('actor_type=robot'), 422, 'validation_failed');
    assertError(await list('sort=action'), 422, 'validation_failed');
    assertError(await list('since=yesterday'), 422, 'validation_failed');
    assertError(await list('per_page=0'), 422, 'validation_failed');
  });

  test('reading needs audit:read, and a token acting for a user needs the audit.read permission', async () => {
    const other = await app.token(['organization:read']);
    const refused = await list('', other);
    assertError(refused, 403, 'insufficient_scope');
    assert.match(String(refused.headers['www-authenticate']), /scope="audit:read"/);

    const viewer = await f.staff({ roles: '["viewer"]' });
    const forViewer = await f.token(['audit:read'], { userId: viewer.id });
    assertError(await list('', forViewer.secret), 403, 'permission_denied');
    const auditor = await f.staff({ permissions: '["audit.read"]' });
    const forAuditor = await f.token(['audit:read'], { userId: auditor.id });
    assert.equal((await list('', forAuditor.secret)).statusCode, 200);
  });

  test('the daily audit.purge task deletes the events older than the retention', async () => {
    const db = app.platform.database.db;
    const now = app.platform.clock.now();
    const at = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
    const old = { actor_type: 'system', actor_name: 'system', action: 'test.aged', subject_type: 'test', via: 'job' } as const;
    await db
      .insertInto('audit_events')
      .values([
        { ...old, occurred_at: at(401), subject_id: 1 },
        { ...old, occurred_at: at(399), subject_id: 2 },
      ])
      .execute();
    const purge = auditModule.tasks['audit.purge'];
    const result = await purge({
      platform: app.platform,
      services: app.services,
      now,
      signal: new AbortController().signal,
      logger: pino({ level: 'silent' }),
    });
    assert.equal(result.deleted, 1);
    const left = await db.selectFrom('audit_events').select('subject_id').where('action', '=', 'test.aged').execute();
    assert.deepEqual(
      left.map((e) => e.subject_id),
      [2],
    );
    const task = await db.selectFrom('scheduled_tasks').selectAll().where('task_type', '=', 'audit.purge').executeTakeFirstOrThrow();
    assert.equal(task.cron, '45 3 * * *');
  });
});
