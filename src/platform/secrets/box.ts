import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SecretKey } from '../../secret-key.ts';

/**
 * The columns that hold such secrets, each with the words that name one value in messages. A new one
 * (the OIDC client secret) is a line here: sealing at start and `academy secrets rotate` cover it.
 */
export const SECRET_COLUMNS = {
  webhookSecret: { table: 'webhook_endpoints', column: 'secret', named: 'id', label: 'signing secret of webhook endpoint' },
  integrationAuthHeader: { table: 'integrations', column: 'auth_header', named: 'key', label: 'auth_header of integration' },
} as const;

export type SecretKind = keyof typeof SECRET_COLUMNS;

/** Where a stored value comes from, for messages: its kind and its row's `named` column (id or key). */
export interface SecretPlace {
  kind: SecretKind;
  id: number | string;
}

/** A stored secret that this process cannot open: another key, a damaged value, or one never encrypted. */
export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyError';
  }
}

/**
 * `enc:v1:<key id>:<base64url of IV, ciphertext and tag>`. The version names the scheme (AES-256-GCM,
 * a 12-byte IV, a 16-byte tag, the column as additional data); the key id says which key opens it, so
 * a rotation knows what to re-encrypt and a wrong key is named instead of failing as a bad tag.
 */
const PREFIX = 'enc:v1:';
const SEALED = /^enc:v1:([0-9a-f]{8}):([A-Za-z0-9_-]+)$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Whether a stored value is in the encrypted form (of any key); anything else is plain text of an earlier version. */
export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** The id of the key a stored value was encrypted under; null for plain text. */
export function sealedKeyId(stored: string): string | null {
  return SEALED.exec(stored)?.[1] ?? null;
}

/** The additional data: a value copied into another column does not open there. */
function purpose(kind: SecretKind): Buffer {
  const { table, column } = SECRET_COLUMNS[kind];
  return Buffer.from(`academy:${table}.${column}`);
}

export interface SecretBox {
  /** The id of the key this box encrypts under. */
  keyId: string;
  seal(kind: SecretKind, plaintext: string): string;
  /** The plaintext; a SecretKeyError naming the value, and the keys when they differ, if it cannot be opened. */
  open(place: SecretPlace, stored: string): string;
  /**
   * A MAC of `value` for `purpose` (e.g. `csrf`), base64url: HMAC-SHA256 under a key derived from the
   * secret key for that purpose alone, so that a MAC made for one purpose is worth nothing for another.
   */
  mac(purpose: string, value: string): string;
  /** Whether `mac` is the MAC of `value` for `purpose` (compared in constant time). */
  verifyMac(purpose: string, value: string, mac: string): boolean;
}

export function createSecretBox(key: SecretKey): SecretBox {
  const describe = (place: SecretPlace) => `${SECRET_COLUMNS[place.kind].label} ${place.id}`;
  const macKeys = new Map<string, Buffer>();
  const macKey = (purpose: string) => {
    let derived = macKeys.get(purpose);
    if (!derived) {
      derived = Buffer.from(hkdfSync('sha256', key.bytes(), Buffer.alloc(0), `academy:mac:${purpose}`, 32));
      macKeys.set(purpose, derived);
    }
    return derived;
  };
  const mac = (purpose: string, value: string) => createHmac('sha256', macKey(purpose)).update(value).digest('base64url');
  return {
    keyId: key.id,
    mac,
    verifyMac(purpose, value, given) {
      const expected = Buffer.from(mac(purpose, value));
      const presented = Buffer.from(given);
      return presented.length === expected.length && timingSafeEqual(presented, expected);
    },

    seal(kind, plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key.bytes(), iv);
      cipher.setAAD(purpose(kind));
      const encrypted = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${PREFIX}${key.id}:${Buffer.concat([iv, encrypted, cipher.getAuthTag()]).toString('base64url')}`;
    },

    open(place, stored) {
      if (!isSealed(stored)) {
        throw new SecretKeyError(
          `The stored ${describe(place)} is not encrypted yet: run \`academy migrate\`, which encrypts such values (so does every start).`,
        );
      }
      const match = SEALED.exec(stored);
      const data = match ? Buffer.from(match[2] as string, 'base64url') : null;
      if (!match || !data || data.length < IV_BYTES + TAG_BYTES) throw new SecretKeyError(`The stored ${describe(place)} is damaged.`);
      if (match[1] !== key.id) {
        throw new SecretKeyError(
          `The stored ${describe(place)} was encrypted under secret key ${match[1]}, but the configured key is ${key.id}: ` +
            'set ACADEMY_SECRET_KEY (or ACADEMY_SECRET_KEY_FILE) to the key it was encrypted under, or re-encrypt with `academy secrets rotate --from-key-file`.',
        );
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key.bytes(), data.subarray(0, IV_BYTES));
        decipher.setAAD(purpose(place.kind));
        decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
        return Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretKeyError(`The stored ${describe(place)} does not open with secret key ${key.id}: the value is damaged.`);
      }
    },
  };
}
