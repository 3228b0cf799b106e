import { createHash, randomBytes } from 'node:crypto';

/**
 * Session ids and password-reset tokens: 32 random bytes in base64url (256 bits), shown once (in the
 * cookie, in the email) and stored only as their SHA-256, so that the database, or a backup of it,
 * cannot be used to sign in.
 */
export function newSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, hash: hashSecret(secret) };
}

/** What is stored of a session id or reset token, and looked up by. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
