/**
 * The one reading of a person's email address, for every writer (the users and students services,
 * the applications import) and every look-up by email (`tokens create --user`): one mailbox, one user.
 */

export const EMAIL_MAX = 254;

/** What the address is checked against once normalised: one `@`, no spaces, a dot in the domain. */
const SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// Forms that look like (or wrap) another address, refused rather than repaired, so that what is stored
// is what the operator typed: control and invisible format characters (U+200B, U+200D, U+00AD, …),
// any space, angle brackets, and quotes. The ASCII apostrophe stays: o'brien@example.org is common.
const REFUSED = /[\p{Cc}\p{Cf}\p{Z}\s<>"\p{Pi}\p{Pf}]/u;

export type CheckedEmail = { ok: true; value: string } | { ok: false; message: string };

/**
 * Trimmed, lowercased and NFC-composed: the form stored and compared, so that case and the
 * composed or decomposed spelling of `é` never make two users of one address (the unique index on
 * `users.email` holds on this form).
 */
export function normaliseEmail(value: string): string {
  return value.trim().toLowerCase().normalize('NFC');
}

/** The normalised address, or why it is none (for a 422 on `email`, or an import's line). */
export function checkEmail(value: unknown): CheckedEmail {
  if (typeof value !== 'string') return { ok: false, message: 'The email must be a valid address, e.g. ada@example.org.' };
  const email = normaliseEmail(value);
  if (REFUSED.test(email)) {
    return {
      ok: false,
      message: 'The email must be a bare address, without spaces, invisible characters, angle brackets or quotes, e.g. ada@example.org.',
    };
  }
  // Fullwidth letters (ｊ, ＠) and other compatibility forms are refused, not folded to ASCII by NFKC:
  // folding would store an address other than the one typed, and the other look-alikes are refused
  // too. An input method's fullwidth mode is then a message to retype, not a silent rewrite.
  if (email.normalize('NFKC') !== email) {
    return {
      ok: false,
      message: 'The email has fullwidth or other compatibility characters; type it in plain letters, e.g. ada@example.org.',
    };
  }
  if (email.endsWith('.')) return { ok: false, message: 'The email must not end in a dot, e.g. ada@example.org.' };
  if (!SHAPE.test(email) || email.length > EMAIL_MAX) {
    return { ok: false, message: 'The email must be a valid address, e.g. ada@example.org.' };
  }
  return { ok: true, value: email };
}
