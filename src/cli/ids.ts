import { InvalidArgumentError } from 'commander';
import { NotFoundError } from '../platform/errors.ts';

/** An id given on the command line: a positive integer, else `not_found` naming what was given. */
export function idArgument(value: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(value)) throw new NotFoundError(`"${value}" is not an id (a positive integer).`);
  return Number(value);
}

/** An option's parser: a whole number from 1 to `max`, else a usage error naming the option. */
export function positiveInt(name: string, max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
      throw new InvalidArgumentError(`${name} must be a whole number from 1 to ${max}.`);
    }
    return Number(value);
  };
}
