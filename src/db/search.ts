import { type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Dialect } from './database.ts';

/**
 * The text columns that `GET /search` looks in, per table (ADR 0009). Each is indexed for substring
 * search: on SQLite by an FTS5 trigram table `<table>_search` kept current by triggers, on PostgreSQL
 * by a pg_trgm GIN index on `lower(column)`. A migration creates those indexes; a column added here
 * needs one that adds it to them.
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
 * A condition on the rows of `table` (as `alias`): one of its search columns contains `text`,
 * case-insensitively (letter case is folded beyond ASCII on both databases). This is the one place
 * where the dialects differ: PostgreSQL matches `lower(column) LIKE '%text%'`, which its trigram
 * indexes serve; SQLite looks the text up in the table's FTS5 trigram index, or scans for text of
 * fewer than three characters, which no trigram index can answer.
 */
export function textMatch(dialect: Dialect, table: SearchTable, text: string, alias: string = table): RawBuilder<SqlBool> {
  const needle = text.toLowerCase();
  const columns = SEARCH_COLUMNS[table].map((column) => sql.ref(`${alias}.${column}`));
  if (dialect === 'postgres') {
    const pattern = containsPattern(needle);
    return sql<SqlBool>`(${sql.join(
      columns.map((column) => sql`lower(${column}) like ${pattern} escape '\\'`),
      sql` or `,
    )})`;
  }
  if ([...needle].length >= TRIGRAM) {
    const index = sql.table(`${table}_search`);
    return sql<SqlBool>`${sql.ref(`${alias}.id`)} in (select rowid from ${index} where ${index} match ${phrase(needle)})`;
  }
  return sql<SqlBool>`(${sql.join(
    columns.map((column) => sql`instr(lower(${column}), ${needle}) > 0`),
    sql` or `,
  )})`;
}

/** One group's answer: at most `limit` rows and how many matched in all. */
export interface SearchRows<O> {
  total: number;
  rows: O[];
}

/**
 * Runs a group's filtered query once: the first `limit` rows in `order` (ties broken by `id`) and
 * the total number of matches, counted by a window over the same scan instead of a second query.
 */
export async function searchRows<O>(
  query: SelectQueryBuilder<any, any, O>,
  options: { limit: number; order: string; id: string },
): Promise<SearchRows<O>> {
  const rows = (await query
    .select(sql<number>`count(*) over ()`.as('search_total'))
    .orderBy(sql.ref(options.order))
    .orderBy(sql.ref(options.id))
    .limit(options.limit)
    .execute()) as (O & { search_total: number | string })[];
  const total = Number(rows[0]?.search_total ?? 0);
  return { total, rows: rows.map(({ search_total: _, ...row }) => row as O) };
}
