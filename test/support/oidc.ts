import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person with an account at the provider: what its ID token (and user info) says about them. */
export interface ProviderAccount {
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The provider's accounts by login (its subject): the test adds people here. */
  accounts: Map<string, ProviderAccount>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (oidc-provider) on 127.0.0.1, at an ephemeral port, over plain http,
 * with one confidential client whose only redirect URI is `redirectUri`. Its login and consent pages
 * are oidc-provider's development interactions: any password is taken for the login typed. With
 * `emailInIdToken` false it follows the specification closely and gives the email in the user info
 * only (the ID token of a code flow carries no scope's claims).
 */
export async function startProvider(options: { redirectUri: string; emailInIdToken?: boolean }): Promise<TestProvider> {
  let handler: http.RequestListener = (_request, response) => response.writeHead(503).end();
  const server = http.createServer((request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'academy';
  const clientSecret = randomBytes(32).toString('base64url');
  const accounts = new Map<string, ProviderAccount>();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

  const configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: options.emailInIdToken === false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    async findAccount(_ctx: unknown, sub: string) {
      const account = accounts.get(sub);
      return account && { accountId: sub, claims: () => ({ sub, ...account }) };
    },
  };
  // oidc-provider warns, rightly, that its in-memory store and development pages are for a test
  // like this one: those warnings alone are left out of the test's output.
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).startsWith('oidc-provider WARNING')) warn(...args);
  };
  try {
    handler = new Provider(issuer, configuration).callback();
  } finally {
    console.warn = warn;
  }

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A browser's part at the provider, over real HTTP: it keeps the provider's cookies, follows its
 * redirects, fills the login form with `login` (and any password) and consents, or cancels at the
 * login page. Returns the URL the provider sends the browser back to (the first outside the issuer).
 */
export async function atProvider(
  issuer: string,
  authorizationUrl: string,
  login: string,
  options: { cancel?: boolean } = {},
): Promise<URL> {
  const jar = new Map<string, string>();
  const send = async (url: URL, form?: Record<string, string>) => {
    const headers: Record<string, string> = {};
    if (jar.size > 0) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      headers,
      redirect: 'manual',
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', ...rest] = pair.split('=');
      const expired = attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
      if (expired || rest.join('=') === '') jar.delete(name.trim());
      else jar.set(name.trim(), rest.join('='));
    }
    return response;
  };

  let url = new URL(authorizationUrl);
  for (let step = 0; step < 20; step++) {
    if (url.origin !== new URL(issuer).origin) return url;
    const response = await send(url);
    let answer = response;
    if (response.status === 200) {
      const page = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
      const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
      if (!action || !prompt) throw new Error(`no form at the provider's ${url.pathname}: ${page.slice(0, 500)}`);
      if (prompt === 'login' && options.cancel) {
        const abort = /href="([^"]*\/abort)"/.exec(page)?.[1];
        if (!abort) throw new Error(`no cancel link on the provider's login page: ${page.slice(0, 500)}`);
        answer = await send(new URL(abort.replaceAll('&amp;', '&'), url));
      } else {
        const fields: Record<string, string> = prompt === 'login' ? { prompt, login, password: 'any password' } : { prompt };
        answer = await send(new URL(action.replaceAll('&amp;', '&'), url), fields);
      }
    }
    const location = answer.headers.get('location');
    if (answer.status < 300 || answer.status >= 400 || !location) {
      throw new Error(`the provider answered ${answer.status} at ${url.pathname}: ${(await answer.text()).slice(0, 500)}`);
    }
    url = new URL(location, url);
  }
  throw new Error('the provider kept redirecting');
}
