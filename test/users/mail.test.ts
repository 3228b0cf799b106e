import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { operatorContext } from '../../src/platform/context.ts';
import type { Worker } from '../../src/platform/jobs/worker.ts';
import { eventually } from '../support/eventually.ts';
import { formClient } from '../support/forms.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';
import { deadSmtpUrl, type SmtpServer, startSmtpServer } from '../support/smtp.ts';

const INVITE_URL = 'https://admin.northwind.example/staff/accept?source=email';

interface NotificationBody {
  id: number;
  type: string;
  status: string;
  user_id: number;
  recipient: string;
  subject: string;
  attempts: number;
  last_error: string | null;
  sent_at: string | null;
  failed_at: string | null;
}

// Workers of this file's apps, stopped once its tests end.
const workers: Worker[] = [];
after(() => Promise.all(workers.map((worker) => worker.stop(2000))));

async function startApp(env: Record<string, string>): Promise<{ app: TestApp; token: string }> {
  // The tests poll the API; the rate limit is not what they test.
  const app = await createTestApp({ env: { ACADEMY_INVITE_URL: INVITE_URL, ACADEMY_RATE_LIMIT_PER_MINUTE: '1000000', ...env } });
  const token = await app.token(['users:read', 'users:write', 'identity-notifications:read', 'organization:write']);
  const worker = app.platform.createWorker({ pollMs: 50 });
  await worker.start();
  workers.push(worker);
  return { app, token };
}

function helpers(app: TestApp, token: string) {
  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
    const res = await app.http.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json(), raw: res.body };
  };
  const notification = async (userId: number, type: string) => {
    const { body } = await call('GET', `/notifications?user_id=${userId}&type=${type}`);
    return body.data[0] as NotificationBody | undefined;
  };
  const notificationWhen = (userId: number, type: string, done: (n: NotificationBody) => boolean, what: string) =>
    eventually(
      async () => {
        const found = await notification(userId, type);
        return found && done(found) ? found : undefined;
      },
      { what },
    );
  const invite = async (name: string, email: string) => {
    const created = await call('POST', '/users', { name, email });
    assert.equal(created.status, 201, created.raw);
    const invited = await call('POST', `/users/${created.body.data.id}/invite`);
    assert.equal(invited.status, 200, invited.raw);
    return created.body.data.id as number;
  };
  return { call, notification, notificationWhen, invite };
}

describe('identity emails through a real SMTP server', () => {
  let smtp: SmtpServer;
  let app: TestApp;
  let api: ReturnType<typeof helpers>;
  const ops = () => operatorContext({ clock: app.platform.clock, logger: pino({ level: 'silent' }) });
  /** The first `count` mails received for `address`. */
  const mailsFor = (address: string, count = 1) =>
    eventually(
      () => {
        const mails = smtp.messages.filter((m) => m.to.includes(address));
        return mails.length >= count && mails;
      },
      { what: `${count} mail(s) for ${address}` },
    );

  before(async () => {
    smtp = await startSmtpServer();
    let token: string;
    ({ app, token } = await startApp({ SMTP_URL: smtp.url, ACADEMY_MAIL_FROM: 'Northwind <office@northwind.example>' }));
    api = helpers(app, token);
    const org = await api.call('PATCH', '/organization', {
      name: 'Northwind & Partners <Academy>',
      locale: 'en-GB',
      timezone: 'Europe/London',
      contact_email: 'office@northwind.example',
    });
    assert.equal(org.status, 200, org.raw);
  });

  test('the invitation reaches the invited address with text and HTML parts and a single-use acceptance link', async () => {
    const id = await api.invite('Grace Hopper', 'Grace.Hopper@Example.org');
    const [received] = await mailsFor('grace.hopper@example.org');
    assert.ok(received);
    assert.deepEqual(received.to, ['grace.hopper@example.org']);
    assert.equal(received.from, 'office@northwind.example');
    const { mail } = received;
    assert.equal(mail.subject, 'You are invited to join Northwind & Partners <Academy>');
    assert.equal(mail.from?.value[0]?.address, 'office@northwind.example');
    assert.ok(mail.text, 'a text part');
    assert.ok(typeof mail.html === 'string' && mail.html.length > 0, 'an HTML part');
    assert.match(mail.text, /^Hello Grace Hopper,/);
    assert.match(mail.html, /Northwind &amp; Partners &lt;Academy&gt;/, 'the HTML escapes the organization name');
    assert.match(mail.text, /Questions\? Write to office@northwind\.example\./);

    const links = mail.text.match(/https:\/\/admin\.northwind\.example\/\S+/g) ?? [];
    assert.equal(links.length, 1, mail.text);
    const link = new URL(links[0] as string);
    assert.equal(`${link.origin}${link.pathname}`, 'https://admin.northwind.example/staff/accept');
    assert.equal(link.searchParams.get('source'), 'email', 'the configured query is kept');
    const token = link.searchParams.get('token') ?? '';
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(mail.html.includes(`href="${link.toString().replace(/&/g, '&amp;')}"`), 'the same link in the HTML part');

    const [invitation] = await app.platform.database.db.selectFrom('user_invitations').selectAll().where('user_id', '=', id).execute();
    assert.equal(invitation?.token_hash, createHash('sha256').update(token).digest('hex'), 'the stored hash is the token’s');
    const everything = JSON.stringify(await app.platform.database.db.selectFrom('user_invitations').selectAll().execute());
    assert.ok(!everything.includes(token), 'the token itself is stored nowhere');
    const jobs = JSON.stringify(await app.platform.database.db.selectFrom('jobs').selectAll().execute());
    assert.ok(!jobs.includes(token));
    const expiresIn = Date.parse(invitation?.expires_at ?? '') - Date.now();
    assert.ok(expiresIn > 167 * 3_600_000 && expiresIn <= 168 * 3_600_000, 'expires a week after it was sent');
    assert.match(mail.text, /The link works once and until \d{1,2} \w+ \d{4}/, 'the expiry in the organization’s locale');

    const sent = await api.notificationWhen(id, 'invitation', (n) => n.status === 'sent', 'the invitation to be sent');
    assert.equal(sent.recipient, 'grace.hopper@example.org');
    assert.equal(sent.subject, mail.subject);
    assert.equal(sent.attempts, 1);
    assert.equal(sent.last_error, null);
    assert.ok(sent.sent_at);
    const shown = await api.call('GET', `/notifications/${sent.id}`);
    assert.equal(shown.status, 200);
    assert.deepEqual(shown.body.data, sent);
    assert.ok(!shown.raw.includes(token), 'the API never shows the link');

    // Following the link activates the user, once.
    const accepted = await app.services.users.acceptInvitation(ops(), token);
    assert.equal(accepted.status, 'active');
    assert.ok(accepted.activated_at);
    await assert.rejects(app.services.users.acceptInvitation(ops(), token), { status: 404, code: 'not_found' });
    const [, activation] = await mailsFor('grace.hopper@example.org', 2);
    assert.equal(activation?.mail.subject, 'Your Northwind & Partners <Academy> account is active');
    await api.notificationWhen(id, 'activation', (n) => n.status === 'sent', 'the activation notice to be sent');
  });

  test('an expired, altered or closed link accepts nothing', async () => {
    const id = await api.invite('Alan Turing', 'alan.turing@example.org');
    const [received] = await mailsFor('alan.turing@example.org');
    const token = new URL((received?.mail.text ?? '').match(/https:\/\/\S+/)?.[0] ?? '').searchParams.get('token') ?? '';
    const service = app.services.users;
    const altered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [altered, '', 'short', `${token}x`]) {
      await assert.rejects(service.acceptInvitation(ops(), bad), { status: 404, code: 'not_found' });
    }

    await app.platform.database.db
      .updateTable('user_invitations')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', id)
      .execute();
    await assert.rejects(service.acceptInvitation(ops(), token), { status: 404, code: 'not_found' });
    assert.equal((await api.call('GET', `/users/${id}`)).body.data.status, 'invited');

    // Activated by the administration instead: the link is closed even once it would be valid again.
    await app.platform.database.db
      .updateTable('user_invitations')
      .set({ expires_at: new Date(Date.now() + 3_600_000).toISOString() })
      .where('user_id', '=', id)
      .execute();
    await service.activate(ops(), id);
    await assert.rejects(service.acceptInvitation(ops(), token), { status: 404, code: 'not_found' });
  });

  test('emails are written in the organization’s language', async () => {
    const org = await api.call('PATCH', '/organization', { name: 'Akademie Nord', locale: 'de-AT', timezone: 'Europe/Vienna' });
    assert.equal(org.status, 200);
    const id = await api.invite('Lise Meitner', 'lise.meitner@example.org');
    const [received] = await mailsFor('lise.meitner@example.org');
    assert.equal(received?.mail.subject, 'Einladung zu Akademie Nord');
    assert.match(received?.mail.text ?? '', /^Hallo Lise Meitner,/);
    assert.match(received?.mail.text ?? '', /Der Link ist einmal und bis .*\d{4}.* gültig/);
    assert.match(String(received?.mail.html), /<html lang="de">/);
    assert.equal((await api.notification(id, 'invitation'))?.subject, 'Einladung zu Akademie Nord');
  });
});

describe('identity emails while the SMTP server is down', () => {
  let app: TestApp;
  let api: ReturnType<typeof helpers>;

  before(async () => {
    let token: string;
    ({ app, token } = await startApp({ SMTP_URL: await deadSmtpUrl() }));
    api = helpers(app, token);
  });

  /** Makes the scheduled retry of the notification's job due now. */
  async function dueNow(notificationId: number): Promise<void> {
    const db = app.platform.database.db;
    const job = await eventually(
      async () =>
        (await db.selectFrom('jobs').selectAll().where('name', '=', 'notifications.send').where('failed_at', 'is', null).execute()).find(
          (j) => JSON.parse(j.payload).notificationId === notificationId && j.locked_at === null,
        ),
      { what: 'the retry to be scheduled' },
    );
    assert.ok(Date.parse(job.run_at) - Date.now() > 10_000, 'the retry waits (backoff)');
    await db.updateTable('jobs').set({ run_at: new Date().toISOString() }).where('id', '=', job.id).execute();
  }

  test('the notification is retried with backoff and ends failed with the last error; the API keeps answering', async () => {
    const id = await api.invite('Hedy Lamarr', 'hedy.lamarr@example.org');
    let notification = await api.notificationWhen(id, 'invitation', (n) => n.attempts === 1 && n.last_error !== null, 'a failed attempt');
    assert.equal(notification.status, 'queued');
    assert.match(notification.last_error ?? '', /ECONNREFUSED/);

    for (let attempt = 2; attempt <= 6; attempt++) {
      const started = Date.now();
      const user = await api.call('GET', `/users/${id}`);
      assert.equal(user.status, 200, 'the API answers while mail cannot be sent');
      assert.ok(Date.now() - started < 2000);
      await dueNow(notification.id);
      notification = await api.notificationWhen(
        id,
        'invitation',
        (n) => n.attempts === attempt && n.last_error !== null,
        `attempt ${attempt}`,
      );
    }
    const failed = await api.notificationWhen(id, 'invitation', (n) => n.status === 'failed', 'the notification to fail');
    assert.equal(failed.attempts, 6);
    assert.match(failed.last_error ?? '', /ECONNREFUSED/);
    assert.ok(failed.failed_at);
    assert.equal(failed.sent_at, null);
    assert.equal((await api.call('GET', '/notifications?status=failed')).body.meta.total, 1);
    assert.equal((await api.call('GET', `/users/${id}`)).body.data.status, 'invited', 'the move stands');
    await eventually(
      async () => (await app.platform.events.listByType('job.failed')).some((e) => JSON.parse(e.payload).job_name === 'notifications.send'),
      { what: 'job.failed for the delivery' },
    );
  });
});

describe('the acceptance page that invitation links open by default', () => {
  let smtp: SmtpServer;
  let app: TestApp;
  let api: ReturnType<typeof helpers>;

  before(async () => {
    smtp = await startSmtpServer();
    let token: string;
    ({ app, token } = await startApp({
      SMTP_URL: smtp.url,
      ACADEMY_INVITE_URL: '',
      ACADEMY_PUBLIC_URL: 'https://academy.example.org/base',
    }));
    api = helpers(app, token);
  });

  test('opening the link shows whom it is for and uses nothing up; choosing a password activates the user and signs in, once', async () => {
    const id = await api.invite('Margaret Hamilton', 'margaret@example.org');
    const mail = await eventually(() => smtp.messages.find((m) => m.to.includes('margaret@example.org')), { what: 'the invitation' });
    const link = new URL(mail.mail.text?.match(/https:\/\/\S+/)?.[0] ?? '');
    assert.equal(`${link.origin}${link.pathname}`, 'https://academy.example.org/base/invitations/accept');
    const token = link.searchParams.get('token') ?? '';
    const path = `/invitations/accept?token=${encodeURIComponent(token)}`;

    for (let view = 0; view < 2; view++) {
      const shown = await app.http.inject({ method: 'GET', url: path });
      assert.equal(shown.statusCode, 200, shown.body);
      assert.match(String(shown.headers['content-type']), /^text\/html/);
      assert.equal(shown.headers['cache-control'], 'no-store');
      assert.equal(shown.headers['referrer-policy'], 'no-referrer');
      assert.equal(shown.headers['x-content-type-options'], 'nosniff');
      assert.match(shown.body, /Margaret Hamilton \(margaret@example\.org\)/);
      assert.match(shown.body, /<form method="post"/);
    }
    assert.equal((await api.call('GET', `/users/${id}`)).body.data.status, 'invited', 'opening the link accepts nothing');

    const browser = formClient(app.http);
    const password = 'orbit-lunar-module-1969-guidance';
    const accepted = await browser.submit(path, '/invitations/accept', { token, password, password_confirmation: password });
    assert.equal(accepted.statusCode, 303, accepted.body);
    assert.equal(accepted.headers.location, '/console');
    assert.ok(browser.jar.has('academy_session'), 'signed in');
    assert.equal((await api.call('GET', `/users/${id}`)).body.data.status, 'active');
    await api.notificationWhen(id, 'activation', (n) => n.status === 'queued' || n.status === 'sent', 'the activation notice');

    // Another browser, not signed in, with the same link.
    const other = formClient(app.http);
    const again = await other.request('POST', '/invitations/accept', {
      _csrf: await other.csrf(),
      token,
      password,
      password_confirmation: password,
    });
    assert.equal(again.statusCode, 404); // status only: an HTML page
    assert.match(again.body, /does not work any more/);
    // status only: the invitation page is HTML, with or without a token
    for (const url of [path, '/invitations/accept']) assert.equal((await app.http.inject({ method: 'GET', url })).statusCode, 404, url);
    const document = await app.http.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    assert.ok(!document.body.includes('/invitations/accept'), 'the page is not part of the API');
  });
});
