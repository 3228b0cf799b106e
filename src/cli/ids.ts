import { AppError, NotFoundError } from '../platform/errors.ts';

/**
 * An argument that names nothing (an unknown key, a malformed id): the API's `not_found` code for
 * `--json`, with a message that says what was given.
 */
export function notFound(message: string): AppError {
  return new AppError(404, 'not_found', message);
}

/** An id given on the command line: a positive integer, else the same answer as an unknown id. */
export function idArgument(value: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(value)) throw new NotFoundError();
  return Number(value);
}
