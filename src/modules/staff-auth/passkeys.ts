import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import { json } from '../../db/codec.ts';
import type { DB } from '../../db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { Clock } from '../../platform/clock.ts';
import { NotFoundError, ValidationError } from '../../platform/errors.ts';
import type { SecretBox } from '../../platform/secrets/box.ts';
import type { Credentials, PasskeyRow, StaffAuthRepository } from './repository.ts';
import { hashSecret } from './secrets.ts';
import { acting, type RequestMeta, type Seen, type StaffAuthService, type StartedSession } from './service.ts';

/** How long a registration or a sign-in may take between its options and its answer. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

/** EdDSA, ES256 and RS256 (COSE ids): what authenticators make, and what Node verifies without experiments. */
const SUPPORTED_ALGORITHMS = [-8, -7, -257];

/** Where passkeys are used: the site's domain (the relying party's id) and the pages' origin. */
export interface RelyingParty {
  id: string;
  origin: string;
  /** The name an authenticator shows beside the passkey (the organization's). */
  name: string;
}

/** A verified new passkey, before it is kept. */
export type NewPasskey = Pick<PasskeyRow, 'credential_id' | 'public_key' | 'counter' | 'transports' | 'backed_up'>;

export type PasskeySignIn = { kind: 'signed_in'; started: StartedSession } | { kind: 'failed' };

export interface PasskeyServiceDeps {
  db: Kysely<DB>;
  auth: StaffAuthRepository;
  sessions: Pick<StaffAuthService, 'start'>;
  secrets: Pick<SecretBox, 'mac'>;
  clock: Clock;
}

/** The challenge a browser's answer signed, read from its client data (null when it has none). */
function challengeOf(response: { response?: { clientDataJSON?: unknown } }): string | null {
  const encoded = response?.response?.clientDataJSON;
  if (typeof encoded !== 'string' || encoded.length > 4096) return null;
  try {
    const challenge = (JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as { challenge?: unknown }).challenge;
    return typeof challenge === 'string' && challenge.length <= 200 ? challenge : null;
  } catch {
    return null;
  }
}

/**
 * Passkeys (WebAuthn, discoverable credentials): registering one for a staff user, signing in with
 * one without a password, listing and removing them. Only public keys are kept; each challenge works
 * once, for CHALLENGE_TTL_MS, and only its hash is stored.
 */
export function createPasskeyService(deps: PasskeyServiceDeps) {
  const { auth, clock } = deps;

  /** The user's handle at the authenticator: stable, opaque, and not their id. */
  const handleOf = (userId: number) => new Uint8Array(Buffer.from(deps.secrets.mac('webauthn-user', String(userId)), 'base64url'));

  async function keep(challenge: string, purpose: 'register' | 'sign_in', userId: number | null): Promise<void> {
    const now = clock.epochMs();
    await auth.insertChallenge(
      { challengeHash: hashSecret(challenge), purpose, userId, expiresAt: new Date(now + CHALLENGE_TTL_MS).toISOString() },
      new Date(now).toISOString(),
    );
  }

  /** Uses up the challenge `response` signed: its value, or null when it is not a live one of `purpose` (for `userId`). */
  async function use(response: object, purpose: 'register' | 'sign_in', userId: number | null): Promise<string | null> {
    const challenge = challengeOf(response as { response?: { clientDataJSON?: unknown } });
    if (!challenge) return null;
    return (await auth.useChallenge(hashSecret(challenge), purpose, userId, clock.now().toISOString())) ? challenge : null;
  }

  const refused = () => ValidationError.field('passkey', 'The passkey could not be registered: try again.');

  return {
    /** What the browser needs to make a passkey for `user` (one per authenticator: those they have are excluded). */
    async registrationOptions(
      user: Pick<Credentials, 'id' | 'email' | 'name'>,
      rp: RelyingParty,
    ): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const existing = await auth.passkeysOf(user.id);
      const options = await generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userName: user.email,
        userDisplayName: user.name,
        userID: handleOf(user.id),
        attestationType: 'none',
        timeout: CHALLENGE_TTL_MS,
        excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: json<string[]>(row.transports) })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
        // The library's default asks Node's experimental Web Crypto check (a warning in the log).
        supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
      });
      await keep(options.challenge, 'register', user.id);
      return options;
    },

    /**
     * Verifies the browser's answer to a registration of `user`, using its challenge up: what to keep
     * of the new passkey. A 422 on `passkey` when the answer is not one to trust.
     */
    async verifyNew(user: Pick<Credentials, 'id'>, response: RegistrationResponseJSON, rp: RelyingParty): Promise<NewPasskey> {
      const challenge = await use(response, 'register', user.id);
      if (!challenge) throw refused();
      const verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: false,
        supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
      }).catch(() => null);
      if (!verified?.verified) throw refused();
      const { credential, credentialBackedUp } = verified.registrationInfo;
      return {
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: JSON.stringify(credential.transports ?? []),
        backed_up: credentialBackedUp,
      };
    },

    /** Keeps a verified passkey of `user` under `name`, in `executor`'s transaction (with its audit event). */
    async keep(executor: Kysely<DB>, user: Pick<Credentials, 'id' | 'name'>, passkey: NewPasskey, name: string, seen: Seen) {
      const label = name.trim().slice(0, 100) || 'Passkey';
      const row = await auth.insertPasskey(executor, { ...passkey, user_id: user.id, name: label, created_at: clock.now().toISOString() });
      await recordAudit(executor, acting(seen, user), {
        action: 'passkey.registered',
        subject: { type: 'user', id: user.id },
        changes: { passkey: [null, label] },
      });
      return row;
    },

    /** Verifies and keeps a new passkey of the signed-in `user`. */
    async register(
      user: Pick<Credentials, 'id' | 'name'>,
      response: RegistrationResponseJSON,
      name: string,
      rp: RelyingParty,
      seen: Seen,
    ): Promise<PasskeyRow> {
      const passkey = await this.verifyNew(user, response, rp);
      return deps.db.transaction().execute((trx) => this.keep(trx, user, passkey, name, seen));
    },

    /** What the browser needs to sign in with any passkey of this site (discoverable: no user is named). */
    async authenticationOptions(rp: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'preferred', timeout: CHALLENGE_TTL_MS });
      await keep(options.challenge, 'sign_in', null);
      return options;
    },

    /**
     * Signs in with a passkey: its challenge must be live and unused, the passkey known, its
     * signature good, and its user an active staff user. Every failure is the same outcome.
     */
    async signIn(response: AuthenticationResponseJSON, rp: RelyingParty, meta: RequestMeta, seen: Seen): Promise<PasskeySignIn> {
      const challenge = await use(response, 'sign_in', null);
      const found = typeof response?.id === 'string' && response.id.length <= 1400 ? await auth.findPasskey(response.id) : undefined;
      const verified =
        challenge && found
          ? await verifyAuthenticationResponse({
              response,
              expectedChallenge: challenge,
              expectedOrigin: rp.origin,
              expectedRPID: rp.id,
              credential: {
                id: found.passkey.credential_id,
                publicKey: new Uint8Array(Buffer.from(found.passkey.public_key, 'base64url')),
                counter: found.passkey.counter,
                transports: json<string[]>(found.passkey.transports) as never,
              },
              requireUserVerification: false,
            }).catch(() => null)
          : null;
      if (!found || !verified?.verified || found.user.status !== 'active') {
        await deps.db.transaction().execute((trx) =>
          recordAudit(trx, acting(seen, { id: found?.user.id ?? null, name: found?.user.email ?? 'unknown passkey' }), {
            action: 'session.sign_in_failed',
            subject: { type: 'user', id: found?.user.id ?? null },
            changes: { method: [null, 'passkey'] },
          }),
        );
        return { kind: 'failed' };
      }
      const { user, passkey } = found;
      const started = await deps.db.transaction().execute(async (trx) => {
        const now = clock.now().toISOString();
        await auth.usePasskey(trx, passkey.id, verified.authenticationInfo.newCounter, now);
        const made = await deps.sessions.start(trx, user, 'passkey', meta);
        await recordAudit(trx, acting(seen, user), {
          action: 'session.signed_in',
          subject: { type: 'user', id: user.id },
          changes: { method: [null, 'passkey'] },
        });
        return made;
      });
      return { kind: 'signed_in', started };
    },

    /** The user's passkeys, oldest first. */
    list: (userId: number) => auth.passkeysOf(userId),

    /** Removes one of the signed-in user's passkeys (a 404 for one that is not theirs). */
    async remove(user: Pick<Credentials, 'id' | 'name'>, id: number, seen: Seen): Promise<void> {
      await deps.db.transaction().execute(async (trx) => {
        const removed = await auth.removePasskey(trx, user.id, id);
        if (!removed) throw new NotFoundError();
        await recordAudit(trx, acting(seen, user), {
          action: 'passkey.removed',
          subject: { type: 'user', id: user.id },
          changes: { passkey: [removed.name, null] },
        });
      });
    },
  };
}

export type PasskeyService = ReturnType<typeof createPasskeyService>;
