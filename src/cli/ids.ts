import { NotFoundError } from '../platform/errors.ts';

/** An id given on the command line: a positive integer, else `not_found` naming what was given. */
export function idArgument(value: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(value)) throw new NotFoundError(`"${value}" is not an id (a positive integer).`);
  return Number(value);
}
