import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { operatorContext } from '../../src/platform/context.ts';
import type { Worker } from '../../src/platform/jobs/worker.ts';
import { dialect } from '../support/env.ts';
import { eventually } from '../support/eventually.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { formClient } from '../support/forms.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';
import { type SmtpServer, startSmtpServer } from '../support/smtp.ts';

const PASSWORD = 'granite-orchard-violin-1909';

/**
 * CONTRACT, "Secrets at rest": after a password is set, a session started, a reset link and an
 * invitation mailed, an API token and a webhook endpoint made, the whole database is read back, every
 * row of every table, and none of those secrets is in it.
 */
describe('the database holds no secret in plain text', () => {
  let app: TestApp;
  let make: Fixtures;
  let smtp: SmtpServer;
  let worker: Worker;

  before(async () => {
    smtp = await startSmtpServer();
    app = await createTestApp({ env: { SMTP_URL: smtp.url } });
    make = fixtures(app.platform);
    worker = app.platform.createWorker({ pollMs: 50 });
    await worker.start();
  });
  after(() => worker.stop(2000));

  /** Every value of every table, as text. */
  async function dump(): Promise<string> {
    const db = app.platform.database.db;
    const tables =
      dialect === 'sqlite'
        ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows.map((r) => r.name)
        : (
            await sql<{
              name: string;
            }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db)
          ).rows.map((r) => r.name);
    assert.ok(tables.includes('staff_sessions') && tables.includes('webhook_endpoints'));
    const parts: string[] = [];
    for (const table of tables) {
      const rows = (await sql`select * from ${sql.table(table)}`.execute(db)).rows;
      parts.push(`${table}: ${JSON.stringify(rows)}`);
    }
    return parts.join('\n');
  }

  test('no password, session id, reset or invitation token, API token or webhook secret', async () => {
    const ctx = operatorContext(app.platform);
    const user = await make.staff({ name: unique('Keeper') });
    await app.services.staffAuth.setPassword(app.platform.database.db, user.id, PASSWORD);
    const browser = formClient(app.http);
    const signedIn = await browser.submit('/console/sign-in', '/console/sign-in', {
      email: user.email,
      password: PASSWORD,
      next: '/console',
    });
    assert.equal(signedIn.statusCode, 303);
    const session = browser.jar.get('academy_session') as string;

    await formClient(app.http).submit('/console/password/forgot', '/console/password/forgot', { email: user.email });
    const reset = await eventually(() => smtp.messages.find((m) => m.to.includes(user.email)), { what: 'the reset mail' });
    const resetToken = new URL(reset.mail.text?.match(/https?:\/\/\S+/)?.[0] ?? '').searchParams.get('token') ?? '';

    const invited = await app.services.users.create(ctx, {
      name: 'Invited Person',
      email: `invited.${unique('i').toLowerCase()}@example.org`,
    });
    await app.services.users.invite(ctx, invited.id);
    const invitation = await eventually(() => smtp.messages.find((m) => m.to.includes(invited.email)), { what: 'the invitation' });
    const invitationToken = new URL(invitation.mail.text?.match(/https?:\/\/\S+/)?.[0] ?? '').searchParams.get('token') ?? '';

    const apiToken = await app.token(['organization:read']);
    const { secret: webhookSecret } = await app.services.webhooks.create(ctx, {
      url: 'https://hooks.example.org/in',
      events: ['enrollment.created'],
    });

    const secrets = { PASSWORD, session, resetToken, invitationToken, apiToken, webhookSecret };
    for (const [name, value] of Object.entries(secrets)) assert.ok(value.length >= 12, `${name} was made`);
    const everything = await dump();
    for (const [name, value] of Object.entries(secrets)) assert.ok(!everything.includes(value), `${name} is stored in plain text`);
    // Their secret part without any prefix is not there either (a token is `acd_` and its secret).
    assert.ok(!everything.includes(apiToken.slice(4)), 'the API token without its prefix');
  });
});
