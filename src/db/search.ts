import type { AliasedExpression, Kysely, RawBuilder, SelectQueryBuilder, SqlBool } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from './database.ts';
import type { DB } from './schema.ts';
import { estimatedRows, lookupParts, type SampleSource, type TrigramLookup } from './trigrams.ts';

/**
 * The text columns that `GET /search` looks in, per table (ADR 0009). Each is indexed for substring
 * search: on SQLite by an FTS5 trigram table `<table>_search` kept current by triggers, on PostgreSQL
 * by a pg_trgm GIN index on `lower(column)`. A migration creates those indexes; a column added here
 * needs a migration that adds it to them.
 */
export const SEARCH_COLUMNS = {
  users: ['name', 'email'],
  staff: ['name', 'email'],
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

/**
 * Indexes of part of a table's rows (migration 0028), by the table they hold rows of and which rows:
 * staff users alone, whom a text that thousands of students share would otherwise bury (GET /search
 * counts the staff that contain a surname by reading every student who does first). SQLite: the
 * FTS5 table `staff_search`; PostgreSQL: a partial trigram index, which a query chooses by its own
 * condition (`users.is_admin`, a column, never a parameter).
 */
export const SEARCH_SUBSETS: Partial<Record<SearchTable, { table: keyof DB & string; where: string }>> = {
  staff: { table: 'users', where: 'is_admin' },
};

/** The table whose rows `table`'s index holds. */
export function rowsOf(table: SearchTable): keyof DB & string {
  return SEARCH_SUBSETS[table]?.table ?? (table as keyof DB & string);
}

/** The trigram index answers only for at least this many characters; shorter text is a scan. */
const TRIGRAM = 3;

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function containsPattern(text: string): string {
  return `%${likeEscaped(text)}%`;
}

/** An FTS5 query for the exact text: one phrase, its quotes doubled. */
function phrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** SQLite: an FTS5 query for rows holding every part; PostgreSQL: a LIKE pattern for rows holding them in order. */
function lookupQuery(dialect: Dialect, parts: TrigramLookup): string {
  if (dialect === 'sqlite') return parts.map(phrase).join(' AND ');
  return `%${parts.map(likeEscaped).join('%')}%`;
}

/** The lookup is the whole needle: the rows it finds need no check. */
function isWhole(parts: TrigramLookup, needle: string): boolean {
  return parts.length === 1 && parts[0] === needle;
}

/**
 * PostgreSQL keeps the lowercased search text of these tables in a stored generated column, which
 * the trigram index covers (migration 0017): a row is tested without computing it again.
 */
const STORED_TEXT: Partial<Record<SearchTable, string>> = { users: 'search_text', staff: 'search_text' };

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
 * How a text is matched in one table. `kind` and `recheck` decide the condition's SQL; `lookup` and
 * `needle` are its parameters: a statement compiled for one plan's shape serves every text of that
 * shape with these values (`GET /search` compiles its statement once per shape).
 *
 * - `index`: looked up in the table's trigram index (PostgreSQL: `LIKE` on the indexed expression,
 *   which also serves text shorter than a trigram, by scanning; SQLite: an FTS5 phrase).
 * - `like` (SQLite, ASCII text under three characters): SQLite's own `LIKE`, which folds ASCII case.
 * - `instr` (SQLite, other text under three characters): `instr(lower(column), needle)`.
 *
 * - `scan` (PostgreSQL, GET /search alone: `searchPlan`): a text that the sample says many rows
 *   contain, tested row by row (`strpos`), which no index serves: the trigram index would read the
 *   long lists of its common trigrams whole before the first row.
 *
 * `recheck`: the index is asked for parts of the text (`lookupParts`: its rarest run of characters,
 * or trigrams apart), and the rows it finds are checked for the whole text.
 */
export interface TextMatchPlan {
  kind: 'index' | 'like' | 'instr' | 'scan';
  recheck: boolean;
  lookup: string;
  needle: string;
}

export function textMatchPlan(dialect: Dialect, table: SearchTable, text: string): TextMatchPlan {
  const needle = text.toLowerCase();
  if ([...needle].length >= TRIGRAM) {
    // A long text is looked up by its rarest parts, then checked whole on the rows found (trigrams.ts).
    const parts = lookupParts(table, needle, dialect);
    return { kind: 'index', recheck: !isWhole(parts, needle), lookup: lookupQuery(dialect, parts), needle };
  }
  if (dialect === 'postgres') return { kind: 'index', recheck: false, lookup: containsPattern(needle), needle };
  if (/^[\x20-\x7e]*$/.test(needle)) return { kind: 'like', recheck: false, lookup: containsPattern(needle), needle };
  return { kind: 'instr', recheck: false, lookup: needle, needle };
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
  const plan = textMatchPlan(dialect, table, text);
  return planMatch(dialect, table, plan, plan, alias);
}

/**
 * The condition of `textMatch` for a plan's shape (`kind`, `recheck`), with `values` as its
 * parameters: the plan's own, or stand-ins that a compiled statement replaces (GET /search).
 */
export function planMatch(
  dialect: Dialect,
  table: SearchTable,
  plan: Pick<TextMatchPlan, 'kind' | 'recheck'>,
  values: { lookup: unknown; needle: unknown },
  alias: string = table,
): RawBuilder<SqlBool> {
  const columns = SEARCH_COLUMNS[table].map((column) => sql.ref(`${alias}.${column}`));
  if (dialect === 'postgres') {
    const text = postgresText(table, alias);
    if (plan.kind === 'scan') return sql<SqlBool>`strpos(${text}, ${values.needle}) > 0`;
    const lookup = sql<SqlBool>`${text} like ${values.lookup} escape '\\'`;
    return plan.recheck ? sql<SqlBool>`(${lookup} and strpos(${text}, ${values.needle}) > 0)` : lookup;
  }
  if (plan.kind === 'index') {
    const index = sql.table(`${table}_search`);
    const lookup = sql<SqlBool>`${sql.ref(`${alias}.id`)} in (select rowid from ${index} where ${index} match ${values.lookup})`;
    return plan.recheck ? sql<SqlBool>`(${lookup} and ${wholeText(columns, values.needle)})` : lookup;
  }
  const match =
    plan.kind === 'like'
      ? (column: (typeof columns)[number]) => sql`${column} like ${values.lookup} escape '\\'`
      : (column: (typeof columns)[number]) => sql`instr(lower(${column}), ${values.lookup}) > 0`;
  return sql<SqlBool>`(${sql.join(columns.map(match), sql` or `)})`;
}

/** What each search index holds, to sample (`ensureTrigramSamples`). */
export const SEARCH_SOURCES: Readonly<Record<SearchTable, SampleSource>> = Object.fromEntries(
  (Object.keys(SEARCH_COLUMNS) as SearchTable[]).map((table) => {
    const subset = SEARCH_SUBSETS[table];
    const source: SampleSource = { table: rowsOf(table), columns: SEARCH_COLUMNS[table] };
    return [table, subset ? { ...source, flag: subset.where } : source];
  }),
) as Record<SearchTable, SampleSource>;

/**
 * PostgreSQL reads a text that at least this share of a table's rows contain row by row (`scan`):
 * the trigram index reads the lists of its trigrams whole before it yields a row, as long as the
 * table is large for such a text (`learners`, which every student's email holds: 150 ms of lists at
 * 100,000 students, against 0.7 ms testing the first thousand rows). Not lower: a group may want few
 * of those rows (`staff` is in one user's email in eleven, no student's), and a scan would then read
 * the whole table to find none.
 */
const DENSE_SHARE = 0.25;

/**
 * How GET /search reads `table`'s rows that contain `text` (ADR 0025): its `textMatchPlan`, or on
 * PostgreSQL a `scan` for a text the sample says is dense in the table. The sample chooses how to
 * read, never what is found: a stale one makes a search slower, never different.
 */
export function searchPlan(dialect: Dialect, table: SearchTable, text: string): TextMatchPlan {
  const plan = textMatchPlan(dialect, table, text);
  if (dialect !== 'postgres' || [...plan.needle].length < TRIGRAM) return plan;
  const estimate = estimatedRows(table, plan.needle);
  return estimate && estimate.share >= DENSE_SHARE ? { ...plan, kind: 'scan', recheck: false } : plan;
}

/**
 * A condition on one row of `rowsOf(table)` (as `alias`): it contains the text, tested on the row
 * itself (no index), for reading a table in id order and testing each row until a page is full.
 */
export function matchTest(
  dialect: Dialect,
  table: SearchTable,
  plan: Pick<TextMatchPlan, 'kind'>,
  values: { lookup: unknown; needle: unknown },
  alias: string,
): RawBuilder<SqlBool> {
  if (dialect === 'postgres') return sql<SqlBool>`strpos(${postgresText(table, alias)}, ${values.needle}) > 0`;
  const columns = SEARCH_COLUMNS[table].map((column) => sql.ref(`${alias}.${column}`));
  if (plan.kind === 'like')
    return sql<SqlBool>`(${sql.join(
      columns.map((column) => sql`${column} like ${values.lookup} escape '\\'`),
      sql` or `,
    )})`;
  // One call of lower() (JavaScript's, sqlite.ts) per row: the columns joined by U+001F, which no searched text holds.
  if (columns.length === 1) return wholeText(columns, values.needle);
  return sql<SqlBool>`instr(lower(${sql.join(
    columns.map((column) => sql`coalesce(${column}, '')`),
    sql` || char(31) || `,
  )}), ${values.needle}) > 0`;
}

/**
 * The rows of `rowsOf(table)` (as `alias`) that contain the text, read through the table's index:
 * a query to join to and select from, and the column that reads them in id order, or null where
 * the index has no order (PostgreSQL's trigram index). SQLite reads its FTS5 index in rowid order
 * and joins each row it finds (`CROSS JOIN` keeps the index outside), so that a count or a page
 * stops at its last row; text shorter than a trigram reads the table itself in id order.
 */
export function matchSource(
  db: Kysely<DB>,
  dialect: Dialect,
  table: SearchTable,
  plan: Pick<TextMatchPlan, 'kind' | 'recheck'>,
  values: { lookup: unknown; needle: unknown },
  alias: string,
  /** What to read the rows from instead of the table, as `alias`: a query of its rows with `id` and the search columns. */
  from?: AliasedExpression<any, string>,
): { query: SelectQueryBuilder<any, any, NothingSelected>; order: string | null } {
  const any = db as Kysely<any>;
  const rows = (from ?? sql.table(rowsOf(table)).as(alias)) as AliasedExpression<any, string>;
  if (dialect === 'sqlite' && plan.kind === 'index') {
    const index = `${table}_search`;
    let query = any
      .selectFrom(sql.table(index).as(index))
      .crossJoin(rows)
      .where(sql<SqlBool>`${sql.ref(`${index}.rowid`)} = ${sql.ref(`${alias}.id`)}`)
      .where(sql<SqlBool>`${sql.table(index)} match ${values.lookup}`);
    if (plan.recheck) query = query.where(matchTest(dialect, table, plan, values, alias));
    return { query, order: `${index}.rowid` };
  }
  const query = any.selectFrom(rows).where(planMatch(dialect, table, { kind: plan.kind, recheck: plan.recheck }, values, alias));
  return { query, order: dialect === 'sqlite' ? `${alias}.id` : null };
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
function wholeText(columns: readonly RawBuilder<unknown>[], needle: unknown): RawBuilder<SqlBool> {
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
export function matchesInIdOrder<T extends SearchTable & keyof DB>(
  db: Kysely<DB>,
  dialect: Dialect,
  table: T,
  text: string,
): SelectQueryBuilder<DB, T, NothingSelected> | null {
  const needle = text.toLowerCase();
  if (dialect !== 'sqlite' || [...needle].length < TRIGRAM) return null;
  const parts = lookupParts(table, needle, 'sqlite');
  const index = `${table}_search`;
  let query: SelectQueryBuilder<any, any, any> = (db as Kysely<any>)
    .selectFrom(sql.table(index).as(index))
    .crossJoin(table as string)
    .where(sql<SqlBool>`${sql.ref(`${index}.rowid`)} = ${sql.ref(`${table}.id`)}`)
    .where(sql<SqlBool>`${sql.table(index)} match ${lookupQuery('sqlite', parts)}`);
  if (!isWhole(parts, needle))
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
