import { NotFoundError } from '../platform/errors.ts';

/** An id given on the command line: a positive integer, else the same answer as an unknown id. */
export function idArgument(value: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(value)) throw new NotFoundError();
  return Number(value);
}
