import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Worker } from '../../src/platform/jobs/worker.ts';
import { eventually } from '../support/eventually.ts';
import { unique } from '../support/fixtures.ts';
import { formClient } from '../support/forms.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';
import { type SmtpServer, startSmtpServer } from '../support/smtp.ts';

const workers: Worker[] = [];
after(() => Promise.all(workers.map((worker) => worker.stop(2000))));

/**
 * An invitation sent to a mistyped address, corrected with PATCH: the link in the mail that went to
 * the wrong mailbox must not activate the account (CONTRACT.md, Domain decisions, "Emails").
 */
describe('changing a user’s email ends their open invitation', () => {
  let smtp: SmtpServer;
  let app: TestApp;
  let token: string;

  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
    const res = await app.http.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json(), raw: res.body };
  };
  const invite = async (email: string) => {
    const created = await call('POST', '/users', { name: 'Ada Typo', email });
    assert.equal(created.status, 201, created.raw);
    const invited = await call('POST', `/users/${created.body.data.id}/invite`);
    assert.equal(invited.status, 200, invited.raw);
    return created.body.data.id as number;
  };
  const linkSentTo = async (address: string) => {
    const received = await eventually(() => smtp.messages.find((m) => m.to.includes(address)), { what: `a mail to ${address}` });
    return new URL(received.mail.text?.match(/https:\/\/\S+/)?.[0] ?? '').searchParams.get('token') ?? '';
  };
  const open = (link: string) => app.http.inject({ method: 'GET', url: `/invitations/accept?token=${encodeURIComponent(link)}` });
  const password = 'typewriter-margin-bell-carriage';
  const accept = async (link: string) => {
    const browser = formClient(app.http);
    return browser.request('POST', '/invitations/accept', {
      _csrf: await browser.csrf(),
      token: link,
      password,
      password_confirmation: password,
    });
  };

  before(async () => {
    smtp = await startSmtpServer();
    app = await createTestApp({
      env: {
        SMTP_URL: smtp.url,
        ACADEMY_INVITE_URL: '',
        ACADEMY_PUBLIC_URL: 'https://academy.example.org',
        ACADEMY_RATE_LIMIT_PER_MINUTE: '1000000',
      },
    });
    token = await app.token(['users:read', 'users:write', 'identity-notifications:read']);
  });

  describe('with the invitation delivered', () => {
    before(async () => {
      const worker = app.platform.createWorker({ pollMs: 50 });
      await worker.start();
      workers.push(worker);
    });

    test('the link sent to the old address then answers as a used or expired link does; the user stays invited', async () => {
      const tag = unique('typo').toLowerCase();
      const id = await invite(`ada.${tag}@exmaple.org`);
      const link = await linkSentTo(`ada.${tag}@exmaple.org`);
      assert.equal((await open(link)).statusCode, 200, 'the link works before the change');

      const corrected = await call('PATCH', `/users/${id}`, { email: `ada.${tag}@example.org` });
      assert.equal(corrected.status, 200, corrected.raw);

      const shown = await open(link);
      assert.equal(shown.statusCode, 404, 'the page of the old link'); // status only: an HTML page
      assert.match(shown.body, /does not work any more/);
      const accepted = await accept(link);
      assert.equal(accepted.statusCode, 404, 'accepting the old link'); // status only: an HTML page
      assert.match(accepted.body, /does not work any more/);
      assert.equal((await call('GET', `/users/${id}`)).body.data.status, 'invited');
    });

    test('a PATCH that keeps the address (another letter case, or only the name) leaves the link working', async () => {
      const tag = unique('keep').toLowerCase();
      const id = await invite(`kept.${tag}@example.org`);
      const link = await linkSentTo(`kept.${tag}@example.org`);
      assert.equal((await call('PATCH', `/users/${id}`, { email: `KEPT.${tag}@Example.org`, name: 'Ada Kept' })).status, 200);
      const accepted = await accept(link);
      assert.equal(accepted.statusCode, 303, accepted.body);
      assert.equal((await call('GET', `/users/${id}`)).body.data.status, 'active');
    });
  });
});

describe('an invitation still queued when the email changes', () => {
  test('is not sent to the old address: its notification fails, saying why', async () => {
    const smtp = await startSmtpServer();
    const app = await createTestApp({ env: { SMTP_URL: smtp.url, ACADEMY_RATE_LIMIT_PER_MINUTE: '1000000' } });
    const token = await app.token(['users:read', 'users:write', 'identity-notifications:read']);
    const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
      const res = await app.http.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
      return { status: res.statusCode, body: res.json(), raw: res.body };
    };
    const tag = unique('queued').toLowerCase();
    const created = await call('POST', '/users', { name: 'Ada Queued', email: `ada.${tag}@exmaple.org` });
    const id = created.body.data.id as number;
    assert.equal((await call('POST', `/users/${id}/invite`)).status, 200);
    // No worker yet: the invitation waits in the queue while the address is corrected.
    assert.equal((await call('PATCH', `/users/${id}`, { email: `ada.${tag}@example.org` })).status, 200);

    const worker = app.platform.createWorker({ pollMs: 50 });
    await worker.start();
    workers.push(worker);
    const failed = await eventually(
      async () => {
        const listed = (await call('GET', `/notifications?user_id=${id}&type=invitation`)).body.data[0];
        return listed?.status === 'failed' ? listed : undefined;
      },
      { what: 'the queued invitation to end failed' },
    );
    assert.match(failed.last_error, /email changed/);
    assert.equal(failed.attempts, 1);
    assert.deepEqual(
      smtp.messages.filter((m) => m.to.some((to) => to.includes(tag))),
      [],
      'no mail to either address',
    );
    const invitations = await app.platform.database.db
      .selectFrom('user_invitations')
      .select('used_at')
      .where('user_id', '=', id)
      .where('used_at', 'is', null)
      .execute();
    assert.deepEqual(invitations, [], 'no open link was made');
  });
});
