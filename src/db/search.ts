import { type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Dialect } from './database.ts';
import { executePrepared, idIn } from './prepared.ts';
import type { DB } from './schema.ts';
import { lookupPart } from './trigrams.ts';

/**
 * The text columns that `GET /search` looks in, per table (ADR 0009). Each is indexed for substring
 * search: on SQLite by an FTS5 trigram table `<table>_search` kept current by triggers, on PostgreSQL
 * by a pg_trgm GIN index on `lower(column)`. A migration creates those indexes; a column added here
 * needs a migration that adds it to them.
 */
export const SEARCH_COLUMNS = {
  users: ['name', 'email'],
  courses: ['title', 'code', 'slug'],
  training_sessions: ['name'],
  assessments: ['title'],
  learning_resources: ['title'],
  meetings: ['location'],
  certificates: ['certificate_number'],
  workflow_instances: ['workflow', 'subject_type'],
  notifications: ['recipient', 'subject'],
  documents: ['title', 'filename'],
  reports: ['type'],
} as const;

export type SearchTable = keyof typeof SEARCH_COLUMNS;

/** The trigram index answers only for at least this many characters; shorter text is a scan. */
const TRIGRAM = 3;

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** An FTS5 query for the exact text: one phrase, its quotes doubled. */
function phrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * PostgreSQL keeps the lowercased search text of these tables in a stored generated column, which
 * the trigram index covers (migration 0017): a row is tested without computing it again.
 */
const STORED_TEXT: Partial<Record<SearchTable, string>> = { users: 'search_text' };

/**
 * The lowercased text of a row's search columns as PostgreSQL indexes it (migration 0012): one
 * column as it is, several joined by U+001F, a control character that search text never contains;
 * or the column that stores it.
 */
function postgresText(table: SearchTable, alias: string) {
  const stored = STORED_TEXT[table];
  if (stored) return sql.ref(`${alias}.${stored}`);
  const columns = SEARCH_COLUMNS[table];
  if (columns.length === 1) return sql`lower(${sql.ref(`${alias}.${columns[0]}`)})`;
  return sql`lower(${sql.join(
    columns.map((column) => sql`coalesce(${sql.ref(`${alias}.${column}`)}, '')`),
    sql` || chr(31) || `,
  )})`;
}

/** Search text as it is matched: without control characters (which no indexed text is searched for) and trimmed. */
export function searchText(text: string): string {
  return text.replace(/\p{Cc}/gu, ' ').trim();
}

/**
 * A condition on the rows of `table` (as `alias`): one of its search columns contains `text`,
 * case-insensitively (letter case is folded beyond ASCII on both databases). `text` is what
 * `searchText` returns, never blank. This is the one place where the dialects differ: PostgreSQL
 * matches `LIKE '%text%'` on the indexed expression, which its trigram index serves; SQLite looks the
 * text up in the table's FTS5 trigram index. Text of fewer than three characters has no trigram: it
 * is a scan, with SQLite's own LIKE where ASCII case folding is all it needs.
 */
export function textMatch(dialect: Dialect, table: SearchTable, text: string, alias: string = table): RawBuilder<SqlBool> {
  const needle = text.toLowerCase();
  const names = SEARCH_COLUMNS[table];
  const columns = names.map((column) => sql.ref(`${alias}.${column}`));
  // A long text is looked up by its rarest part, then checked whole on the rows found (trigrams.ts).
  const part = [...needle].length >= TRIGRAM ? lookupPart(table, needle) : needle;
  if (dialect === 'postgres') {
    const text = postgresText(table, alias);
    const lookup = sql<SqlBool>`${text} like ${containsPattern(part)} escape '\\'`;
    return part === needle ? lookup : sql<SqlBool>`(${lookup} and strpos(${text}, ${needle}) > 0)`;
  }
  if ([...needle].length >= TRIGRAM) {
    const index = sql.table(`${table}_search`);
    const lookup = sql<SqlBool>`${sql.ref(`${alias}.id`)} in (select rowid from ${index} where ${index} match ${phrase(part)})`;
    return part === needle ? lookup : sql<SqlBool>`(${lookup} and ${wholeText(columns, needle)})`;
  }
  const match = /^[\x20-\x7e]*$/.test(needle)
    ? (column: (typeof columns)[number]) => sql`${column} like ${containsPattern(needle)} escape '\\'`
    : (column: (typeof columns)[number]) => sql`instr(lower(${column}), ${needle}) > 0`;
  return sql<SqlBool>`(${sql.join(columns.map(match), sql` or `)})`;
}

/**
 * PostgreSQL: the rows of `table` whose search text contains `text`, as a condition that no index
 * serves (`strpos`, which the trigram index does not answer): for reading rows in another index's
 * order and testing each until a page is full, in a prepared statement whose one plan must never be
 * the trigram lookup. Only where the caller knows the text to be common (see students' list).
 */
export function textScan(table: SearchTable, text: string, alias: string = table): RawBuilder<SqlBool> {
  return sql<SqlBool>`strpos(${postgresText(table, alias)}, ${text.toLowerCase()}) > 0`;
}

/** SQLite: one of `columns` contains `needle` (lowercased). lower() is JavaScript's there (sqlite.ts): it folds case as the trigram index does. */
function wholeText(columns: readonly RawBuilder<unknown>[], needle: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.join(
    columns.map((column) => sql`instr(lower(${column}), ${needle}) > 0`),
    sql` or `,
  )})`;
}

/**
 * The rows of `table` whose search columns contain `text`, for a page in id order: on SQLite, read
 * from the table's FTS5 index in rowid order and joined to the table (`CROSS JOIN` keeps the index
 * outside), so that the page stops at its last row instead of collecting every match and sorting
 * them (0.06 ms against 0.8 ms for a surname 1,812 users share). The query reads from `table` and
 * `<table>_search`; order it by `matchOrderColumn(table)`. Null where it does not apply
 * (PostgreSQL, whose trigram index has no order; text shorter than a trigram): filter with
 * `textMatch` then.
 */
export function matchesInIdOrder<T extends SearchTable>(
  db: Kysely<DB>,
  dialect: Dialect,
  table: T,
  text: string,
): SelectQueryBuilder<DB, T, NothingSelected> | null {
  const needle = text.toLowerCase();
  if (dialect !== 'sqlite' || [...needle].length < TRIGRAM) return null;
  const part = lookupPart(table, needle);
  const index = `${table}_search`;
  let query: SelectQueryBuilder<any, any, any> = (db as Kysely<any>)
    .selectFrom(sql.table(index).as(index))
    .crossJoin(table as string)
    .where(sql<SqlBool>`${sql.ref(`${index}.rowid`)} = ${sql.ref(`${table}.id`)}`)
    .where(sql<SqlBool>`${sql.table(index)} match ${phrase(part)}`);
  if (part !== needle)
    query = query.where(
      wholeText(
        SEARCH_COLUMNS[table].map((column) => sql.ref(`${table}.${column}`)),
        needle,
      ),
    );
  return query as SelectQueryBuilder<DB, T, NothingSelected>;
}

// biome-ignore lint/complexity/noBannedTypes: Kysely's own type of a query that selects nothing yet.
type NothingSelected = {};

/** What a query of `matchesInIdOrder` is ordered by to read its index in order. */
export function matchOrderColumn(table: SearchTable): string {
  return `${table}_search.rowid`;
}

/** One group's answer: at most `limit` rows and how many matched in all. */
export interface SearchRows<O> {
  total: number;
  rows: O[];
}

/**
 * Runs a group's filtered query (which selects `id` and the `order` column): the first `limit`
 * matches in `order` (ascending unless `direction` says otherwise), ties broken by id in the same direction, and the number of matches. The matches are a materialized
 * common table expression, read twice: a planner that saw the ORDER BY … LIMIT with the match would
 * be tempted to walk an index in that order and test every row, instead of looking the text up.
 */
export async function searchRows<O extends { id: number }>(
  db: Kysely<DB>,
  query: SelectQueryBuilder<DB, any, O>,
  options: { limit: number; order: keyof O & string; direction?: 'asc' | 'desc' },
): Promise<SearchRows<O>> {
  const direction = options.direction ?? 'asc';
  const compiled = (db as Kysely<any>)
    .with(
      (cte) => cte('search_hits').materialized(),
      () => query,
    )
    .selectFrom('search_hits')
    .selectAll()
    .select((eb) => eb.selectFrom('search_hits').select(eb.fn.countAll().as('n')).as('search_total'))
    .orderBy(options.order, direction)
    .orderBy('id', direction)
    .limit(options.limit)
    .compile();
  // Planning these costs PostgreSQL more than running them; the text depends only on the group.
  const rows = (await executePrepared(db, compiled)) as (O & { search_total: number | string })[];
  const total = Number(rows[0]?.search_total ?? 0);
  return { total, rows: rows.map(({ search_total: _, ...row }) => row as unknown as O) };
}

/**
 * Like `searchRows`, for groups whose hits show columns of joined tables: `matches` selects only `id`
 * and the `order` column, so that counting thousands of matches joins nothing, and `details` reads
 * the joined columns of the page's rows alone (by id; any order — the page keeps the matches' order).
 */
export async function searchPage<M extends { id: number }, O extends { id: number }>(
  db: Kysely<DB>,
  matches: SelectQueryBuilder<DB, any, M>,
  options: { limit: number; order: keyof M & string; direction?: 'asc' | 'desc' },
  details: (ids: number[]) => Promise<O[]>,
): Promise<SearchRows<O>> {
  const { total, rows } = await searchRows(db, matches, options);
  if (rows.length === 0) return { total, rows: [] };
  const byId = new Map((await details(rows.map((row) => row.id))).map((row) => [row.id, row]));
  return { total, rows: rows.flatMap((row) => byId.get(row.id) ?? []) };
}

/**
 * At most this many users matched by one search are passed to the groups as ids; beyond it (text of
 * one or two letters, a very common part of a name) each group looks the users up itself.
 */
export const SHARED_USERS_MAX = 5000;

/**
 * The ids of the users (staff and students) whose name or email contains the text, looked up once
 * per search and shared by every group that matches through users (students, staff, enrolments,
 * certificates), or null when more than `SHARED_USERS_MAX` match.
 */
export type MatchingUsers = readonly number[] | null;

export async function findMatchingUsers(db: Kysely<DB>, dialect: Dialect, text: string): Promise<MatchingUsers> {
  const compiled = db
    .selectFrom('users')
    .select('users.id')
    .where(textMatch(dialect, 'users', text))
    .limit(SHARED_USERS_MAX + 1)
    .compile();
  const rows = await executePrepared(db, compiled);
  return rows.length > SHARED_USERS_MAX ? null : rows.map((row) => row.id);
}

/**
 * A condition on `column` (a user id): it is one of the users that `users` lists, or, when
 * `users` is null (too many to pass), one whose name or email contains `text` (the index again).
 * The ids travel as one parameter (an array on PostgreSQL, JSON on SQLite), so the statement's
 * text does not depend on how many there are.
 */
export function userIn(dialect: Dialect, column: string, text: string, users: MatchingUsers): RawBuilder<SqlBool> {
  if (users === null) return sql<SqlBool>`${sql.ref(column)} in (select users.id from users where ${textMatch(dialect, 'users', text)})`;
  return idIn(dialect, column, users);
}
