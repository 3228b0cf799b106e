// Staff passwords: only a scrypt hash is stored (ADR 0022). Nothing here logs or returns a password.
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * scrypt's asynchronous form, as a promise: it runs on libuv's thread pool. The synchronous form would
 * stop every request for ~100 ms. (`promisify(scrypt)` loses the overload that takes options.)
 */
function deriveKey(password: string, salt: Buffer, keyBytes: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyBytes, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

interface ScryptParameters {
  /** CPU and memory cost, a power of two. */
  n: number;
  /** Block size. */
  r: number;
  /** Parallelisation. */
  p: number;
}

/** Raise these as machines get faster; older hashes still verify and `needsRehash` upgrades them. */
const CURRENT: ScryptParameters = { n: 2 ** 15, r: 8, p: 1 };
const SALT_BYTES = 16;
const KEY_BYTES = 32;
const FORMAT = 'scrypt';
const VERSION = 'v1';

/** The largest parameters a stored hash may name, so a corrupted row cannot ask for gigabytes. */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

interface StoredHash extends ScryptParameters {
  salt: Buffer;
  hash: Buffer;
}

/**
 * The same password typed on two keyboards (or pasted from two systems) can reach us as different
 * code points: "é" as one character or as "e" plus a combining accent. NFC makes them one string,
 * so a password set on a Mac still verifies when typed on Windows.
 */
export function normalisePassword(password: string): string {
  return password.normalize('NFC');
}

/**
 * scrypt needs 128 · N · r bytes; Node's default ceiling (32 MiB) is exactly that for the current
 * parameters and OpenSSL counts a little more, so the ceiling is twice the need.
 */
function maxmemFor({ n, r }: ScryptParameters): number {
  return 2 * 128 * n * r;
}

function derive(password: string, salt: Buffer, parameters: ScryptParameters, keyBytes: number): Promise<Buffer> {
  const { n, r, p } = parameters;
  return deriveKey(normalisePassword(password), salt, keyBytes, { N: n, r, p, maxmem: maxmemFor(parameters) });
}

/** `scrypt$v1$N$r$p$salt$hash`: the string names its own parameters so they can be raised later. */
function format(stored: StoredHash): string {
  return [FORMAT, VERSION, stored.n, stored.r, stored.p, stored.salt.toString('base64url'), stored.hash.toString('base64url')].join('$');
}

const INTEGER = /^[1-9][0-9]{0,7}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

function parse(stored: string): StoredHash | null {
  const parts = stored.split('$');
  if (parts.length !== 7) return null;
  const [name, version, n, r, p, salt, hash] = parts as [string, string, string, string, string, string, string];
  if (name !== FORMAT || version !== VERSION) return null;
  if (![n, r, p].every((value) => INTEGER.test(value)) || !BASE64URL.test(salt) || !BASE64URL.test(hash)) return null;
  const parsed: StoredHash = {
    n: Number(n),
    r: Number(r),
    p: Number(p),
    salt: Buffer.from(salt, 'base64url'),
    hash: Buffer.from(hash, 'base64url'),
  };
  const powerOfTwo = parsed.n > 1 && (parsed.n & (parsed.n - 1)) === 0;
  if (!powerOfTwo || parsed.n > MAX_N || parsed.r > MAX_R || parsed.p > MAX_P) return null;
  if (parsed.salt.length < SALT_BYTES || parsed.hash.length < 16) return null;
  return parsed;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, CURRENT, KEY_BYTES);
  return format({ ...CURRENT, salt, hash });
}

/**
 * Stands in for the hash of an unknown email, a staff member without a password yet, or a stored
 * string that does not parse. The salt is fixed and the expected key all zeros: what matters is that
 * the work is the same as for a real hash at the current parameters.
 */
const DUMMY: StoredHash = { ...CURRENT, salt: Buffer.alloc(SALT_BYTES, 0x5a), hash: Buffer.alloc(KEY_BYTES) };

/**
 * True when the password matches the stored hash. A sign-in for an unknown email passes `null`:
 * it still costs one full scrypt computation, so the time a refusal takes does not tell whether the
 * email belongs to a staff member.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parsed = stored === null ? null : parse(stored);
  const against = parsed ?? DUMMY;
  const key = await derive(password, against.salt, against, against.hash.length);
  const same = timingSafeEqual(key, against.hash);
  return parsed !== null && same;
}

/** True when the hash was made with weaker parameters than today's: hash again after a sign-in. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed) return true;
  return parsed.n < CURRENT.n || parsed.r < CURRENT.r || parsed.p < CURRENT.p || parsed.hash.length < KEY_BYTES;
}
