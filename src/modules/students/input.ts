/**
 * Checks of a person's fields, shared by `students create` and the CSV import so that both accept
 * exactly the same values. Each returns the normalised value or a message for the operator. The
 * email's check is the platform's (src/platform/email.ts), shared with staff users.
 */

export const NAME_MAX = 200;

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

export function checkName(value: unknown): Checked<string> {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name === '' || name.length > NAME_MAX || /\p{Cc}/u.test(name)) {
    return { ok: false, message: `The name is required: one line of at most ${NAME_MAX} characters.` };
  }
  return { ok: true, value: name };
}
