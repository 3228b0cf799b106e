import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../database.ts';

// The columns GET /search looks in (ADR 0009), written out so this migration keeps meaning what it
// meant when it was released; src/db/search.ts lists them for the queries.
const INDEXED: Record<string, readonly string[]> = {
  users: ['name', 'email'],
  courses: ['title', 'code', 'slug'],
  training_sessions: ['name'],
  assessments: ['title'],
  learning_resources: ['title'],
  meetings: ['location'],
  certificates: ['certificate_number'],
  workflow_instances: ['workflow', 'subject_type'],
  notifications: ['recipient', 'subject'],
};

/**
 * Substring search indexes, kept current in the transaction of every change.
 *
 * SQLite: an FTS5 table per indexed table with the trigram tokenizer (case folded, Unicode aware),
 * over the table itself (external content, nothing stored twice), filled now and kept current by
 * triggers on insert, delete and changes of the indexed columns.
 *
 * PostgreSQL: a GIN trigram index (pg_trgm) per table on the lowercased text of its columns, joined
 * by a control character that no search text contains: one index scan serves `… LIKE '%text%'` over
 * every column (two indexes and a BitmapOr cost the planner enough to prefer scanning the table).
 * Where the extension cannot be created (not installed, or not allowed), the migration goes on
 * without them: search still answers, by scanning.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    for (const [table, columns] of Object.entries(INDEXED)) await sqliteIndex(db, table, columns);
    return;
  }
  if (!(await createTrigramExtension(db))) return;
  for (const [table, columns] of Object.entries(INDEXED)) {
    await sql`create index ${sql.id(`${table}_search`)} on ${sql.table(table)} using gin ((${searchText(columns)}) gin_trgm_ops)`.execute(
      db,
    );
  }
}

/** `lower(a)`, or `lower(coalesce(a, '') || chr(31) || coalesce(b, '') …)`: what src/db/search.ts matches. */
function searchText(columns: readonly string[]) {
  if (columns.length === 1) return sql`lower(${sql.ref(columns[0] as string)})`;
  return sql`lower(${sql.join(
    columns.map((column) => sql`coalesce(${sql.ref(column)}, '')`),
    sql` || chr(31) || `,
  )})`;
}

async function sqliteIndex(db: Kysely<any>, table: string, columns: readonly string[]): Promise<void> {
  const index = `${table}_search`;
  const list = (prefix: string) => sql.raw(columns.map((column) => `${prefix}${column}`).join(', '));
  await sql`create virtual table ${sql.id(index)} using fts5(${list('')}, content=${sql.lit(table)}, content_rowid='id', tokenize='trigram')`.execute(
    db,
  );
  await sql`insert into ${sql.id(index)} (${sql.id(index)}) values ('rebuild')`.execute(db);
  const add = sql`insert into ${sql.id(index)} (rowid, ${list('')}) values (new.id, ${list('new.')});`;
  const remove = sql`insert into ${sql.id(index)} (${sql.id(index)}, rowid, ${list('')}) values ('delete', old.id, ${list('old.')});`;
  await sql`create trigger ${sql.id(`${index}_insert`)} after insert on ${sql.table(table)} begin ${add} end`.execute(db);
  await sql`create trigger ${sql.id(`${index}_delete`)} after delete on ${sql.table(table)} begin ${remove} end`.execute(db);
  await sql`create trigger ${sql.id(`${index}_update`)} after update of ${list('')} on ${sql.table(table)} begin ${remove} ${add} end`.execute(
    db,
  );
}

/** Creates pg_trgm if it can; a failure is undone to a savepoint so that the migration goes on. */
async function createTrigramExtension(db: Kysely<any>): Promise<boolean> {
  const available = await sql<{ name: string }>`select name from pg_available_extensions where name = 'pg_trgm'`.execute(db);
  if (available.rows.length === 0) return false;
  await sql`savepoint search_trigram`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`release savepoint search_trigram`.execute(db);
    return true;
  } catch {
    await sql`rollback to savepoint search_trigram`.execute(db);
    return false;
  }
}
