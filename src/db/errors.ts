/**
 * Whether a database error is a unique-constraint violation, on either dialect: PostgreSQL's SQLSTATE
 * 23505 (of the named index or constraint, when one is given) or SQLite's SQLITE_CONSTRAINT_UNIQUE
 * (whose message names columns, not the index, so `name` is not checked there).
 */
export function isUniqueViolation(error: unknown, name?: string): boolean {
  const e = error as { code?: unknown; errcode?: unknown; constraint?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === '23505') return name === undefined || e.constraint === name;
  return e.code === 'ERR_SQLITE_ERROR' && e.errcode === 2067;
}
