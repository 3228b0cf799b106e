import { closeSync, existsSync, openSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** node:sqlite takes no booleans or undefined; Kysely may pass both. */
function bind(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map((value) => {
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (value === undefined) return null;
    if (value instanceof Date) return value.toISOString();
    return value as SQLInputValue;
  });
}

/**
 * Rows are read as arrays and turned into objects here. node:sqlite's own row objects cost the same
 * to make but each call also leaves a few hundred bytes in V8's old generation (about 500 for a page of
 * 15 courses), which under load fills it within seconds and brings a full collection that pauses the
 * process for 50–90 ms every few seconds; objects made in JavaScript die young.
 */
class Statement implements SqliteStatement {
  readonly reader: boolean;
  readonly #statement: StatementSync;
  readonly #columns: string[];
  /** Rows arrive as arrays (a column named __proto__ cannot be a plain property: such odd statements keep node:sqlite's objects). */
  readonly #arrays: boolean;

  constructor(statement: StatementSync) {
    this.#statement = statement;
    this.#columns = statement.columns().map((column) => column.name);
    this.reader = this.#columns.length > 0;
    this.#arrays = this.reader && !this.#columns.includes('__proto__');
    if (this.#arrays) statement.setReturnArrays(true);
  }

  #object(values: unknown): unknown {
    if (!this.#arrays) return values;
    const row: Record<string, unknown> = {};
    const columns = this.#columns;
    for (let i = 0; i < columns.length; i++) row[columns[i] as string] = (values as unknown[])[i];
    return row;
  }

  /** The column names and the rows as arrays of values in that order (no object per row). */
  arrays(parameters: ReadonlyArray<unknown>): { columns: string[]; rows: unknown[][] } {
    const rows = this.#statement.all(...bind(parameters)) as unknown[];
    if (!this.#arrays) for (let i = 0; i < rows.length; i++) rows[i] = Object.values(rows[i] as object);
    return { columns: this.#columns, rows: rows as unknown[][] };
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    const rows: unknown[] = this.#statement.all(...bind(parameters));
    if (this.#arrays) for (let i = 0; i < rows.length; i++) rows[i] = this.#object(rows[i]);
    return rows;
  }

  run(parameters: ReadonlyArray<unknown>) {
    const result = this.#statement.run(...bind(parameters));
    return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
  }

  *iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    for (const values of this.#statement.iterate(...bind(parameters))) yield this.#object(values);
  }
}

/** The page cache of a connection, in KiB (SQLite's negative `cache_size`). */
export const PAGE_CACHE_KIB = 32 * 1024;

/**
 * Adapts `node:sqlite` to the interface Kysely's SqliteDialect expects. Prepared statements are
 * cached by SQL text: Kysely compiles the same text for the same query shape.
 */
export class NodeSqliteDatabase implements SqliteDatabase {
  readonly #db: DatabaseSync;
  readonly #cache = new Map<string, Statement>();
  #dataVersion: StatementSync | null = null;

  constructor(file: string) {
    // Directories are the caller's to create (the platform creates only the data directory); SQLite's
    // own message for a missing one is "unable to open database file".
    const directory = path.dirname(path.resolve(file));
    if (file !== ':memory:' && !existsSync(directory)) throw new Error(`The directory of the SQLite database does not exist: ${directory}`);
    // A new database file is made private to the service's user before SQLite opens it; SQLite gives
    // its -wal and -shm files the database file's permissions.
    if (file !== ':memory:' && !existsSync(file)) closeSync(openSync(file, 'a', 0o600));
    this.#db = new DatabaseSync(file, { enableForeignKeyConstraints: true, timeout: 5000 });
    this.#db.exec('PRAGMA journal_mode = WAL');
    this.#db.exec('PRAGMA synchronous = NORMAL');
    this.#db.exec('PRAGMA busy_timeout = 5000');
    this.#db.exec('PRAGMA foreign_keys = ON');
    // SQLite's own page cache is 2 MB by default: reads that look rows up at random (a search's
    // matches checked against their users and applications, counted) then read most pages through
    // the operating system again, one call each, about ten times slower. It grows only as pages are
    // read, up to this bound.
    this.#db.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
    // SQLite's lower() folds ASCII only, PostgreSQL's all of Unicode: case-insensitive searches
    // (`lower(name) like …`) must find "Ünal" on both, so lower() is JavaScript's here.
    this.#db.function('lower', { deterministic: true }, (value) => (value === null ? null : String(value).toLowerCase()));
  }

  prepare(sql: string): SqliteStatement & Pick<Statement, 'arrays'> {
    // Take the write lock when a transaction starts: a deferred transaction that later writes can fail
    // with SQLITE_BUSY when another process (the CLI, a worker) holds the lock; IMMEDIATE waits instead.
    if (sql === 'begin') sql = 'begin immediate';
    let statement = this.#cache.get(sql);
    if (!statement) {
      statement = new Statement(this.#db.prepare(sql));
      if (this.#cache.size > 500) this.#cache.clear();
      this.#cache.set(sql, statement);
    }
    return statement;
  }

  /**
   * Changes whenever another connection (another process) commits to the database; this
   * connection's own commits leave it unchanged.
   */
  dataVersion(): number {
    // Read often (src/platform/changes.ts): the one value, without the row object or parameter binding.
    if (!this.#dataVersion) {
      this.#dataVersion = this.#db.prepare('PRAGMA data_version');
      this.#dataVersion.setReturnArrays(true);
    }
    return Number((this.#dataVersion.get() as unknown as [number])[0]);
  }

  close(): void {
    this.#cache.clear();
    this.#db.close();
  }
}
