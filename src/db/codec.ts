/**
 * Column decoders, used once per table at the repository boundary so that services see one shape on
 * both databases: SQLite stores booleans as 0/1, and JSON columns are text on both (database.ts).
 */
export function bool(value: boolean | number): boolean {
  return Boolean(value);
}

export function json<T>(value: string): T;
export function json<T>(value: string | null): T | null;
export function json<T>(value: string | null): T | null {
  return value === null ? null : (JSON.parse(value) as T);
}
