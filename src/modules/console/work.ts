import { Type } from 'typebox';
import { NotFoundError } from '../../platform/errors.ts';

/**
 * What the console's approvals, documents and reports pages share: the id of a record in a path, the
 * page numbers of a URL, a list's URL with its filters, and sizes as people read them.
 */

const MAX_ID = 2_147_483_647;

/** A record's id from a path, or the 404 of a malformed one (as the API answers). */
export function idOf(value: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > MAX_ID) throw new NotFoundError();
  return Number(value);
}

/** A page number or size as a URL gives it. */
export const WholeNumber = Type.String({ pattern: '^[1-9][0-9]{0,8}$', 'x-message': 'must be a whole number from 1 up' });

/** A list's URL with `query`'s values in `keys`' order (an empty one is left out), changed by `change`. */
export function listHref<K extends string>(
  path: string,
  keys: readonly K[],
  query: Partial<Record<K, string | undefined>>,
  change: Partial<Record<K, string>> = {},
): string {
  const params = new URLSearchParams();
  for (const key of keys) {
    const value = key in change ? change[key] : query[key];
    if (value) params.set(key, value);
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** A number of bytes as people read it: `980 bytes`, `12.4 KB`, `3.1 MB` (units of 1,024). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** A whole number with thousands separated: `12,480`. */
export const formatCount = (n: number) => n.toLocaleString('en-GB');

/** A state's key as words: `changes_requested` → `changes requested`. */
export const words = (key: string) => key.replace(/_/g, ' ');
