import type { Kysely } from 'kysely';
import * as client from 'openid-client';
import type { Logger } from 'pino';
import type { OidcSettings } from '../../config.ts';
import type { DB } from '../../db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import { EMAIL_MAX, normaliseEmail } from '../../platform/email.ts';
import type { StaffAuthRepository } from './repository.ts';
import { acting, type RequestMeta, type Seen, type StaffAuthService, type StartedSession } from './service.ts';

/** How long the provider may take to answer one request (its metadata, keys, token, user info). */
const PROVIDER_TIMEOUT_S = 10;

/** What a sign-in started: checked when the provider sends the browser back, then forgotten. */
export interface OidcRequest {
  state: string;
  nonce: string;
  verifier: string;
  /** The callback URL given to the provider: the token request must name the same one. */
  redirectUri: string;
}

export type OidcSignIn = { kind: 'signed_in'; started: StartedSession } | { kind: 'failed' };

/** The provider cannot be reached or answers with a server error: nobody is refused, try later. */
export class ProviderUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The single sign-on provider cannot be reached.', { cause });
    this.name = 'ProviderUnavailableError';
  }
}

export interface OidcServiceDeps {
  settings: OidcSettings;
  db: Kysely<DB>;
  auth: Pick<StaffAuthRepository, 'findStaffByEmail'>;
  sessions: Pick<StaffAuthService, 'start'>;
  logger: Logger;
  /**
   * Plain-http requests to the issuer: only for a provider on this machine (the configuration refuses
   * an http issuer elsewhere); every other issuer is reached over https alone.
   */
  allowInsecureIssuer?: boolean;
}

/** Whether an error of openid-client is the network's or the provider's server's, not a refusal. */
function unreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return true;
  // fetch's own failure (no connection, DNS, TLS) is a TypeError without a code of openid-client's.
  if (error instanceof TypeError && !('code' in error)) return true;
  if (error instanceof client.ResponseBodyError) return error.status >= 500;
  return error instanceof client.ClientError && error.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM';
}

/**
 * Staff single sign-on with OpenID Connect (authorization code with PKCE, state and nonce). The
 * provider vouches for an email (`email_verified: true`); the staff user with that email signs in
 * when active. A sign-in never creates an account.
 */
export function createOidcService(deps: OidcServiceDeps) {
  const { settings, logger } = deps;
  let discovered: Promise<client.Configuration> | null = null;

  /** The provider's metadata, discovered once; a failed discovery is tried again at the next sign-in. */
  function configuration(): Promise<client.Configuration> {
    discovered ??= client
      .discovery(new URL(settings.issuer), settings.clientId, undefined, client.ClientSecretBasic(settings.clientSecret.reveal()), {
        timeout: PROVIDER_TIMEOUT_S,
        execute: deps.allowInsecureIssuer ? [client.allowInsecureRequests] : [],
      })
      .catch((error: unknown) => {
        discovered = null;
        logger.warn({ err: error, issuer: settings.issuer }, 'single sign-on: the provider could not be discovered');
        throw new ProviderUnavailableError(error);
      });
    return discovered;
  }

  /** Records a refused sign-in of someone the provider identified, as the password's refusals are. */
  async function refuse(email: string, userId: number | null, seen: Seen): Promise<OidcSignIn> {
    await deps.db.transaction().execute((trx) =>
      recordAudit(trx, acting(seen, { id: userId, name: email }), {
        action: 'session.sign_in_failed',
        subject: { type: 'user', id: userId },
        changes: { method: [null, 'oidc'] },
      }),
    );
    return { kind: 'failed' };
  }

  return {
    name: settings.name,

    /**
     * Starts a sign-in: the provider's authorization URL, and what must come back with the browser
     * (kept by the caller, out of the browser's reach to change). A ProviderUnavailableError when
     * the provider cannot be discovered.
     */
    async begin(redirectUri: string): Promise<{ url: URL; request: OidcRequest }> {
      const config = await configuration();
      const request: OidcRequest = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier: client.randomPKCECodeVerifier(),
        redirectUri,
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        state: request.state,
        nonce: request.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(request.verifier),
        code_challenge_method: 'S256',
      });
      return { url, request };
    },

    /**
     * Finishes a sign-in with the provider's answer (`query`, the callback's parameters, whose
     * `state` the caller checked against `request`): the code is exchanged with the PKCE verifier,
     * the ID token's nonce checked, and the verified email must be an active staff user's. Every
     * refusal is the same outcome; a ProviderUnavailableError when the provider cannot be reached.
     */
    async finish(request: OidcRequest, query: URLSearchParams, meta: RequestMeta, seen: Seen): Promise<OidcSignIn> {
      const config = await configuration();
      const current = new URL(request.redirectUri);
      current.search = query.toString();
      let claims: Record<string, unknown>;
      try {
        const tokens = await client.authorizationCodeGrant(config, current, {
          expectedState: request.state,
          expectedNonce: request.nonce,
          pkceCodeVerifier: request.verifier,
          idTokenExpected: true,
        });
        const idToken = tokens.claims() as client.IDToken;
        // Providers that follow the specification closely put the email in the user info rather than
        // in the ID token; it is then asked for, for the same subject.
        claims = 'email' in idToken ? idToken : await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
      } catch (error) {
        if (unreachable(error)) {
          logger.warn({ err: error, issuer: settings.issuer }, 'single sign-on: the provider could not be reached');
          throw new ProviderUnavailableError(error);
        }
        const code = error instanceof client.AuthorizationResponseError ? error.error : undefined;
        // The user's own "no" at the provider is routine; anything else may be a misconfiguration.
        if (code === 'access_denied') logger.info('single sign-on: the provider did not authorize the sign-in');
        else logger.warn({ err: error, issuer: settings.issuer }, 'single sign-on: the provider refused or sent a bad answer');
        return { kind: 'failed' };
      }
      const email = typeof claims.email === 'string' && claims.email.length <= EMAIL_MAX ? normaliseEmail(claims.email) : null;
      if (email === null) {
        logger.warn(
          { issuer: settings.issuer },
          'single sign-on: the provider gave no email (is the email scope allowed for this client?)',
        );
        return { kind: 'failed' };
      }
      const user = await deps.auth.findStaffByEmail(email);
      if (claims.email_verified !== true || !user || user.status !== 'active') return refuse(email, user?.id ?? null, seen);
      const started = await deps.db.transaction().execute(async (trx) => {
        const made = await deps.sessions.start(trx, user, 'oidc', meta);
        await recordAudit(trx, acting(seen, user), {
          action: 'session.signed_in',
          subject: { type: 'user', id: user.id },
          changes: { method: [null, 'oidc'] },
        });
        return made;
      });
      return { kind: 'signed_in', started };
    },
  };
}

export type OidcService = ReturnType<typeof createOidcService>;
