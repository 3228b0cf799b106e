import { createHash, randomBytes } from 'node:crypto';
import { inspect } from 'node:util';

/**
 * The key that encrypts secrets the server must use again (README: Secrets at rest). Its bytes never
 * leave this object when it is printed or logged; its id (a fingerprint) is what messages name.
 */
export class SecretKey {
  readonly id: string;
  readonly #bytes: Buffer;

  constructor(bytes: Buffer) {
    if (bytes.length !== 32) throw new Error('A secret key is 32 bytes.');
    this.#bytes = Buffer.from(bytes);
    // 32 bits of a hash of 256 random bits: enough to tell keys apart, nothing to learn the key from.
    this.id = createHash('sha256').update('academy-secret-key:').update(bytes).digest('hex').slice(0, 8);
  }

  static generate(): SecretKey {
    return new SecretKey(randomBytes(32));
  }

  /** The key as ACADEMY_SECRET_KEY and key files hold it. */
  text(): string {
    return this.#bytes.toString('base64');
  }

  bytes(): Buffer {
    return this.#bytes;
  }

  toJSON(): string {
    return `[secret key ${this.id}]`;
  }

  [inspect.custom](): string {
    return this.toJSON();
  }
}

/** 32 bytes written as base64 (`openssl rand -base64 32`), base64url or 64 hex digits; null when it is none of these. */
export function parseSecretKey(text: string): SecretKey | null {
  const value = text.trim();
  let bytes: Buffer | null = null;
  if (/^[0-9a-fA-F]{64}$/.test(value)) bytes = Buffer.from(value, 'hex');
  else if (/^[A-Za-z0-9+/]{43}=?$/.test(value)) bytes = Buffer.from(value, 'base64');
  else if (/^[A-Za-z0-9_-]{43}$/.test(value)) bytes = Buffer.from(value, 'base64url');
  return bytes?.length === 32 ? new SecretKey(bytes) : null;
}
