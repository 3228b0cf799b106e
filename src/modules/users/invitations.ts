import { createHash, randomBytes } from 'node:crypto';

/**
 * Invitation acceptance tokens: 32 random bytes in base64url (256 bits), made when the invitation
 * email is sent and shown only in it. Only their SHA-256 is stored, so the database (or a backup of
 * it) cannot be used to accept an invitation. A token works once and until it expires.
 */
export const INVITATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newInvitationToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashInvitationToken(token) };
}

/** The acceptance link: the configured page with the token added to its query. */
export function invitationLink(base: string, token: string): string {
  const url = new URL(base);
  url.searchParams.set('token', token);
  return url.toString();
}
