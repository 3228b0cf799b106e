import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { oidcButton } from '../../src/modules/staff-auth/oidc.ts';
import { type Fixtures, fixtures, unique } from '../support/fixtures.ts';
import { type FormClient, formClient } from '../support/forms.ts';
import { atProvider, startProvider, type TestProvider } from '../support/oidc.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';

/** The app's public URL: the callback registered at the provider is under it. */
const PUBLIC_URL = 'http://academy.test';
const CALLBACK = `${PUBLIC_URL}/console/sign-in/oidc/callback`;

/**
 * Staff single sign-on with OpenID Connect (CONTRACT, "Staff sign-in and the console") against a real
 * provider (oidc-provider on 127.0.0.1): the browser goes to the provider, signs in and consents there
 * through its pages, and comes back to the callback, as a browser does. The provider vouches for an
 * email; only an active staff user's verified email gets in, and no account is ever created.
 */
describe('staff single sign-on (OpenID Connect)', () => {
  let provider: TestProvider;
  let app: TestApp;
  let make: Fixtures;

  before(async () => {
    provider = await startProvider({ redirectUri: CALLBACK });
    app = await createTestApp({
      env: {
        ACADEMY_PUBLIC_URL: PUBLIC_URL,
        ACADEMY_OIDC_ISSUER: provider.issuer,
        ACADEMY_OIDC_CLIENT_ID: provider.clientId,
        ACADEMY_OIDC_CLIENT_SECRET: provider.clientSecret,
        ACADEMY_OIDC_NAME: 'Northwind ID',
      },
    });
    make = fixtures(app.platform);
  });
  after(() => provider.close());

  /** A person at the provider with `email`; their login there. */
  const atTheProvider = (email: string, emailVerified = true) => {
    const login = unique('person');
    provider.accounts.set(login, { email, email_verified: emailVerified, name: 'Someone' });
    return login;
  };

  /** Opens the single sign-on link: the answer (a 303 to the provider) and the state cookie set. */
  const start = async (browser: FormClient, next = '/console') => {
    const res = await browser.request('GET', `/console/sign-in/oidc?next=${encodeURIComponent(next)}`);
    assert.equal(res.statusCode, 303, res.body);
    return res;
  };

  /** The whole journey: start, the provider's pages, back to the callback (whose answer is returned). */
  const signIn = async (browser: FormClient, login: string, options: { next?: string; cancel?: boolean } = {}) => {
    const started = await start(browser, options.next);
    const back = await atProvider(provider.issuer, String(started.headers.location), login, options);
    assert.equal(`${back.origin}${back.pathname}`, CALLBACK);
    return { callback: `${back.pathname}${back.search}`, res: await browser.request('GET', `${back.pathname}${back.search}`) };
  };

  const userCount = async () =>
    Number(
      (
        await app.platform.database.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const sessionsOf = async (userId: number) =>
    (await app.platform.database.db.selectFrom('staff_sessions').select(['method']).where('user_id', '=', userId).execute()).map(
      (row) => row.method,
    );
  const auditOf = (userId: number) =>
    app.platform.database.db
      .selectFrom('audit_events')
      .select(['action', 'actor_type', 'actor_id', 'via', 'changes'])
      .where('subject_id', '=', userId)
      .where('action', 'like', 'session.%')
      .orderBy('id')
      .execute();
  const method = (changes: unknown) => (JSON.parse(String(changes)) as { method?: unknown[] }).method;

  /** The one message of every refusal: it names no reason. */
  const REFUSED = /Single sign-on did not let you in/;
  const assertRefused = (res: { statusCode: number; body: string; headers: Record<string, unknown> }, browser: FormClient) => {
    // status only here: the page's wording is checked just below
    // status only: a sign-in page (HTML, no JSON code); its message is checked
    assert.equal(res.statusCode, 401);
    assert.match(res.body, REFUSED);
    assert.ok(!/at .*\.ts:\d+/.test(res.body), 'no stack trace');
    assert.ok(!browser.jar.has('academy_session'), 'no session');
    assert.ok(!browser.jar.has('academy_oidc'), 'the state cookie is cleared');
  };

  test('the link leads to the provider with code + PKCE (S256), state and nonce, keeping them in a sealed, HttpOnly cookie', async () => {
    const res = await start(formClient(app.http), '/console?tab=sessions');
    const location = new URL(String(res.headers.location));
    assert.equal(location.origin, provider.issuer);
    const query = location.searchParams;
    assert.equal(query.get('response_type'), 'code');
    assert.equal(query.get('client_id'), provider.clientId);
    assert.equal(query.get('redirect_uri'), CALLBACK);
    assert.equal(query.get('scope'), 'openid email profile');
    assert.equal(query.get('code_challenge_method'), 'S256');
    for (const name of ['state', 'nonce', 'code_challenge']) assert.match(query.get(name) ?? '', /^[A-Za-z0-9_-]{43}$/, name);
    assert.ok(!location.search.includes(provider.clientSecret), 'the secret stays on the server');

    const cookie = String(res.headers['set-cookie']);
    assert.match(cookie, /^academy_oidc=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43};/);
    for (const attribute of ['HttpOnly', 'SameSite=Lax', 'Path=/console/sign-in/oidc', 'Max-Age=600']) {
      assert.ok(cookie.includes(attribute), `${attribute} in ${cookie}`);
    }
    assert.ok(!cookie.includes('Secure'), 'not Secure without an https public URL');
  });

  test('an active staff user whose verified email the provider gives signs in: session, the console, the audit trail', async () => {
    const user = await make.staff({ name: unique('Sso User') });
    const browser = formClient(app.http);
    // The provider's spelling of the address need not be the stored one.
    const { res } = await signIn(browser, atTheProvider(user.email.toUpperCase()), { next: '/console?tab=sessions' });
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, '/console?tab=sessions');
    const cookies = [res.headers['set-cookie'] ?? []].flat();
    assert.ok(
      cookies.some((c) => /^academy_session=[A-Za-z0-9_-]{43};.*HttpOnly/.test(c)),
      `a session cookie in ${cookies}`,
    );
    assert.ok(
      cookies.some((c) => /^academy_oidc=;.*Max-Age=0/.test(c)),
      `the state cookie cleared in ${cookies}`,
    );

    const home = await browser.request('GET', '/console');
    assert.equal(home.statusCode, 200, home.body);
    assert.ok(home.body.includes(user.name), 'the console shows who is signed in');
    assert.deepEqual(await sessionsOf(user.id), ['oidc']);

    const events = await auditOf(user.id);
    assert.deepEqual(
      events.map((e) => [e.action, e.actor_type, e.actor_id, e.via, method(e.changes)]),
      [['session.signed_in', 'user', user.id, 'console', [null, 'oidc']]],
    );
  });

  test('an email that is no staff user’s is refused with the generic page, and no account is created', async () => {
    const before = await userCount();
    const browser = formClient(app.http);
    const email = `nobody.${unique('x')}@example.org`.toLowerCase();
    const { res } = await signIn(browser, atTheProvider(email));
    assertRefused(res, browser);
    assert.equal(await userCount(), before, 'no user was created');
    const failed = await app.platform.database.db
      .selectFrom('audit_events')
      .select(['actor_id', 'via', 'changes'])
      .where('action', '=', 'session.sign_in_failed')
      .where('actor_name', '=', email)
      .execute();
    assert.deepEqual(
      failed.map((e) => [e.actor_id, e.via, method(e.changes)]),
      [[null, 'console', [null, 'oidc']]],
    );
  });

  test('a suspended staff user, and a student, are refused', async () => {
    const suspended = await make.staff({ status: 'suspended' });
    const student = await make.user({ is_admin: false, status: 'active' });
    for (const user of [suspended, student]) {
      const browser = formClient(app.http);
      const { res } = await signIn(browser, atTheProvider(user.email));
      assertRefused(res, browser);
      assert.deepEqual(await sessionsOf(user.id), []);
    }
    assert.deepEqual(
      (await auditOf(suspended.id)).map((e) => [e.action, e.actor_id]),
      [['session.sign_in_failed', suspended.id]],
    );
  });

  test('an email the provider has not verified is refused, even an active staff user’s', async () => {
    const user = await make.staff();
    const browser = formClient(app.http);
    const { res } = await signIn(browser, atTheProvider(user.email, false));
    assertRefused(res, browser);
    assert.deepEqual(await sessionsOf(user.id), []);
    assert.deepEqual(
      (await auditOf(user.id)).map((e) => [e.action, e.actor_id, method(e.changes)]),
      [['session.sign_in_failed', user.id, [null, 'oidc']]],
    );
  });

  test('every refusal is the same page', async () => {
    const suspended = await make.staff({ status: 'suspended' });
    const unverified = await make.staff();
    const bodies = new Set<string>();
    for (const login of [
      atTheProvider(`nobody.${unique('y')}@example.org`),
      atTheProvider(suspended.email),
      atTheProvider(unverified.email, false),
    ]) {
      bodies.add((await signIn(formClient(app.http), login)).res.body);
    }
    assert.equal(bodies.size, 1);
  });

  test('cancelling at the provider (error=access_denied) comes back to the generic refusal', async () => {
    const user = await make.staff();
    const browser = formClient(app.http);
    const { callback, res } = await signIn(browser, atTheProvider(user.email), { cancel: true });
    assert.match(callback, /[?&]error=access_denied/);
    assertRefused(res, browser);
    assert.deepEqual(await sessionsOf(user.id), []);
  });

  test('a callback without the state cookie, with another state, or with a forged cookie is refused (400)', async () => {
    const user = await make.staff();
    const login = atTheProvider(user.email);

    // The provider's answer arrives in a browser that never started a sign-in (login CSRF).
    const started = await start(formClient(app.http));
    const back = await atProvider(provider.issuer, String(started.headers.location), login);
    const stranger = formClient(app.http);
    const none = await stranger.request('GET', `${back.pathname}${back.search}`);
    // status only here: the page's wording is checked just below
    // status only: a sign-in page (HTML, no JSON code); its message is checked
    assert.equal(none.statusCode, 400);
    assert.match(none.body, /did not start here/);
    assert.ok(!stranger.jar.has('academy_session'));

    // A browser that started its own sign-in is sent another one's answer (the state differs).
    const victim = formClient(app.http);
    await start(victim);
    const other = await victim.request('GET', `${back.pathname}${back.search}`);
    // status only: a sign-in page (HTML, no JSON code); its message is checked
    assert.equal(other.statusCode, 400);
    assert.ok(!victim.jar.has('academy_session'));

    // No state at all.
    const bare = formClient(app.http);
    await start(bare);
    assert.equal((await bare.request('GET', `${back.pathname}?code=${back.searchParams.get('code')}`)).statusCode, 400);

    // A cookie written by someone else: its content changed, or its MAC made up.
    const forger = formClient(app.http);
    await start(forger);
    const [payload = '', mac = ''] = (forger.jar.get('academy_oidc') ?? '').split('.');
    const content = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...content, state: back.searchParams.get('state') })).toString('base64url');
    for (const value of [`${forged}.${mac}`, `${forged}.${'A'.repeat(43)}`, forged]) {
      forger.jar.set('academy_oidc', value);
      const res = await forger.request('GET', `${back.pathname}${back.search}`);
      // status only: a sign-in page (HTML, no JSON code); its message is checked
      assert.equal(res.statusCode, 400, value);
      assert.ok(!forger.jar.has('academy_session'));
    }
    assert.deepEqual(await sessionsOf(user.id), []);
  });

  test('the state cookie and the provider’s answer work once: replayed after use, they are refused', async () => {
    const user = await make.staff();
    const browser = formClient(app.http);
    const started = await start(browser);
    const kept = browser.jar.get('academy_oidc') as string;
    const back = await atProvider(provider.issuer, String(started.headers.location), atTheProvider(user.email));
    const first = await browser.request('GET', `${back.pathname}${back.search}`);
    assert.equal(first.statusCode, 303, first.body);
    assert.ok(!browser.jar.has('academy_oidc'), 'cleared by the callback');

    // The same browser sends the same answer again: its state cookie is gone.
    const again = await browser.request('GET', `${back.pathname}${back.search}`);
    // status only: a sign-in page (HTML, no JSON code); its message is checked
    assert.equal(again.statusCode, 400);

    // Someone who copied the cookie and the answer replays both: the code was used up.
    const replayer = formClient(app.http);
    replayer.jar.set('academy_oidc', kept);
    const replayed = await replayer.request('GET', `${back.pathname}${back.search}`);
    assertRefused(replayed, replayer);
    assert.deepEqual(await sessionsOf(user.id), ['oidc'], 'one session, from the first use');
  });

  test('a state cookie older than ten minutes is refused', async () => {
    const user = await make.staff();
    const browser = formClient(app.http);
    const started = await start(browser);
    const back = await atProvider(provider.issuer, String(started.headers.location), atTheProvider(user.email));
    const [payload = ''] = (browser.jar.get('academy_oidc') ?? '').split('.');
    const content = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { expires: number };
    assert.ok(content.expires > Date.now() + 9 * 60_000 && content.expires <= Date.now() + 10 * 60_000);
    // A cookie the browser kept past its Max-Age (its MAC is good: made here, with a lapsed time).
    const lapsed = Buffer.from(JSON.stringify({ ...content, expires: Date.now() - 1000 })).toString('base64url');
    browser.jar.set('academy_oidc', `${lapsed}.${app.platform.secrets.mac('oidc-state', lapsed)}`);
    // status only: a sign-in page (HTML, no JSON code); its message is checked
    assert.equal((await browser.request('GET', `${back.pathname}${back.search}`)).statusCode, 400);
  });

  test('the sign-in button keeps where the user was going, and only a path of this site', () => {
    assert.equal(
      oidcButton('Northwind ID', '/console?tab=sessions').text,
      '<a class="button" href="/console/sign-in/oidc?next=%2Fconsole%3Ftab%3Dsessions">Sign in with Northwind ID</a>',
    );
    assert.equal(
      oidcButton('<b>', 'https://evil.example/').text,
      '<a class="button" href="/console/sign-in/oidc?next=%2Fconsole">Sign in with &lt;b&gt;</a>',
    );
  });

  test('the sign-in page shows the button, for where the user was going', async () => {
    const page = await formClient(app.http).request('GET', '/console/sign-in?next=%2Fconsole%2Faudit');
    assert.ok(page.body.includes('href="/console/sign-in/oidc?next=%2Fconsole%2Faudit">Sign in with Northwind ID</a>'), page.body);
  });
});

describe('staff single sign-on: a provider that gives the email in the user info only', () => {
  test('the email is read from the user info, for the same subject', async () => {
    const provider = await startProvider({ redirectUri: CALLBACK, emailInIdToken: false });
    after(() => provider.close());
    const app = await createTestApp({
      env: {
        ACADEMY_PUBLIC_URL: PUBLIC_URL,
        ACADEMY_OIDC_ISSUER: provider.issuer,
        ACADEMY_OIDC_CLIENT_ID: provider.clientId,
        ACADEMY_OIDC_CLIENT_SECRET: provider.clientSecret,
      },
    });
    const user = await fixtures(app.platform).staff();
    const login = unique('person');
    provider.accounts.set(login, { email: user.email, email_verified: true });
    const browser = formClient(app.http);
    const started = await browser.request('GET', '/console/sign-in/oidc');
    const back = await atProvider(provider.issuer, String(started.headers.location), login);
    const res = await browser.request('GET', `${back.pathname}${back.search}`);
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, '/console');
    assert.equal((await browser.request('GET', '/console')).statusCode, 200);
  });
});

describe('staff single sign-on: when the provider cannot be reached', () => {
  test('the link answers a page (503), not an error', async () => {
    const provider = await startProvider({ redirectUri: CALLBACK });
    await provider.close();
    const app = await createTestApp({
      env: {
        ACADEMY_PUBLIC_URL: PUBLIC_URL,
        ACADEMY_OIDC_ISSUER: provider.issuer,
        ACADEMY_OIDC_CLIENT_ID: provider.clientId,
        ACADEMY_OIDC_CLIENT_SECRET: provider.clientSecret,
      },
    });
    const res = await formClient(app.http).request('GET', '/console/sign-in/oidc?next=%2Fconsole');
    // status only here: the page's wording is checked just below
    // status only: a sign-in page (HTML, no JSON code); its message is checked
    assert.equal(res.statusCode, 503);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /cannot be reached just now/);
    assert.ok(!/at .*\.ts:\d+/.test(res.body), 'no stack trace');
  });
});
