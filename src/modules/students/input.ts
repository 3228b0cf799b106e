/**
 * Checks of a person's fields, shared by `students create` and the CSV import so that both accept
 * exactly the same values. Each returns the normalised value or a message for the operator.
 */

export const NAME_MAX = 200;
export const EMAIL_MAX = 254;

// Deliberately loose (one @, no spaces, a dot in the domain): mail delivery is the real test of an address.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

export function checkName(value: unknown): Checked<string> {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name === '' || name.length > NAME_MAX || /\p{Cc}/u.test(name)) {
    return { ok: false, message: `The name is required: one line of at most ${NAME_MAX} characters.` };
  }
  return { ok: true, value: name };
}

/** Emails are stored lowercased, which makes the unique index case-insensitive. */
export function checkEmail(value: unknown): Checked<string> {
  const email = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!EMAIL.test(email) || email.length > EMAIL_MAX) {
    return { ok: false, message: 'The email must be a valid address, e.g. ada@example.org.' };
  }
  return { ok: true, value: email };
}
