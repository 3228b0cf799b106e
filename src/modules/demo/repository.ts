import { availableParallelism } from 'node:os';
import { CompiledQuery, type Insertable, type Kysely, sql } from 'kysely';
import type { CopyFrom, Dialect } from '../../db/database.ts';
import { HELD_TABLE_TRIGGERS } from '../../db/holder-terms.ts';
import type { DB } from '../../db/schema.ts';
import { SEARCH_COLUMNS, SEARCH_SUBSETS, type SearchTable } from '../../db/search.ts';
import { MARK_ORDERS, remakeMarks } from '../../db/student-marks.ts';
import { remakeTerms, STAFF, termTriggers } from '../../db/student-terms.ts';

/** The tables whose rows make a database "in use" for the seeds: people and the catalogue. */
const OWN_DATA = ['users', 'courses', 'training_sessions', 'course_applications', 'enrolments', 'certificates'] as const;

export function createDemoRepository(db: Kysely<DB>) {
  return {
    /** Whether any user or any part of the catalogue exists. */
    holdsPeopleOrCatalogue: async (): Promise<boolean> => {
      for (const table of OWN_DATA) {
        const row = await db.selectFrom(table).select(sql`1`.as('one')).limit(1).executeTakeFirst();
        if (row) return true;
      }
      return false;
    },
  };
}

/** The tables the scale seed fills, in an order that satisfies their foreign keys. */
export const BULK_TABLES = ['users', 'courses', 'training_sessions', 'enrolments', 'certificates', 'course_applications'] as const;
export type BulkTable = (typeof BULK_TABLES)[number];

/** SQLite binds each value (at most 32766 per statement): rows per statement stay below that. */
const SQLITE_PARAMETERS = 30_000;
/** Beyond this many rows a SQLite statement gains nothing: the rows are bound one value at a time anyway. */
const SQLITE_ROWS = 200;
/** SQLite: rows per transaction (PostgreSQL loads everything in one). */
const SQLITE_TRANSACTION_ROWS = 500_000;

type Row = Readonly<Record<string, unknown>>;

/** SQLite: one statement's worth of rows, bound as its parameters. */
interface Batch {
  readonly size: number;
  readonly full: boolean;
  add(row: Row): void;
  flush(trx: Kysely<DB>): Promise<void>;
}

/** SQLite: `insert … values (?, …), (?, …)`, one prepared statement reused for every full batch. */
function sqliteBatch(table: BulkTable, columns: readonly string[]): Batch {
  const rowsPerStatement = Math.max(1, Math.min(SQLITE_ROWS, Math.floor(SQLITE_PARAMETERS / columns.length)));
  const head = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values `;
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const text = (rows: number) => head + Array.from({ length: rows }, () => tuple).join(', ');
  const statement = text(rowsPerStatement);
  let values: unknown[] = [];
  let size = 0;
  return {
    get size() {
      return size;
    },
    get full() {
      return size === rowsPerStatement;
    },
    add(row) {
      for (const column of columns) values.push(row[column]);
      size += 1;
    },
    async flush(trx) {
      if (size === 0) return;
      await trx.executeQuery(CompiledQuery.raw(size === rowsPerStatement ? statement : text(size), values));
      values = [];
      size = 0;
    },
  };
}

/**
 * PostgreSQL: rows per piece of a COPY's input (about 28 KiB of enrolments): with pieces of 1,000
 * rows the process kept up to 100 MiB more of the buffers they became (docs/performance.md).
 */
const COPY_ROWS = 200;

/** What COPY's text format escapes in a value: the backslash and the separators of fields and rows. */
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value as a field of COPY's text format: `\N` for null, `t` and `f` for booleans, text escaped. */
function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  const text = String(value);
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c] as string) : text;
}

/**
 * PostgreSQL: `rows` as the input of `copy … from stdin`, a piece of COPY_ROWS rows at a time, the
 * columns those of the first row. The server reads a piece while the next is made (COPY parses each
 * field once; the multi-row inserts it replaced parsed arrays and took 166 s for the rows at scale 10).
 */
function copying(copyFrom: CopyFrom): BulkInsert {
  return async (table, rows, onProgress) => {
    const iterator = (rows as Iterable<Row>)[Symbol.iterator]();
    const first = iterator.next();
    if (first.done) return;
    const columns = Object.keys(first.value);
    function* pieces(): Generator<string> {
      let next = first;
      let written = 0;
      while (!next.done) {
        let text = '';
        let size = 0;
        for (; !next.done && size < COPY_ROWS; size++, next = iterator.next()) {
          const row = next.value;
          for (let i = 0; i < columns.length; i++) text += `${i === 0 ? '' : '\t'}${copyField(row[columns[i] as string])}`;
          text += '\n';
        }
        written += size;
        yield text;
        onProgress(written);
      }
    }
    await copyFrom(`copy "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) from stdin`, pieces());
  };
}

/** Writes `rows` into `table` and tells `onProgress` how many were written after each statement. */
export type BulkInsert = <T extends BulkTable>(
  table: T,
  rows: Iterable<Insertable<DB[T]>>,
  onProgress: (written: number) => void,
) => Promise<void>;

/** Where a load is after its rows: the step it starts, with `done` of its `steps` behind it. */
export interface LoadStep {
  step: string;
  done: number;
  steps: number;
}

/**
 * A part of the schema that a load sets aside: the statement that removes it, the statement that
 * puts it back (its own definition, as the database reports it), and one that rebuilds what it
 * maintains, if anything.
 */
interface SetAside {
  drop: string;
  restore: string;
  rebuild?: string[];
}

/**
 * Migration 0027's triggers (a first application makes a student; students are counted per range of
 * ids), 0031's (students are counted between the marks of each order) and 0032's (the words of
 * students' names and emails).
 */
const STUDENT_TRIGGERS = [
  'course_applications_student',
  'users_student_counts_insert',
  'users_student_counts_update',
  'users_student_marks_insert',
  'users_student_marks_update',
  'users_student_terms_insert',
  'users_student_terms_update',
  'users_student_terms_delete',
  // The staff's terms (migration 0041, PostgreSQL), made again with the students' (`remakeTerms`).
  ...termTriggers(STAFF),
  // The certificates' own (migration 0039): their holders' terms are made after the students' (`remakeTerms`).
  ...HELD_TABLE_TRIGGERS,
];

/**
 * The marks of every order and the students' words made again from the students loaded, as the
 * triggers would have made them one by one.
 */
function remakeEveryMark(dialect: Dialect): FinishingStep[] {
  return [
    ...MARK_ORDERS.map((order) => ({ name: `marks by ${order}`, run: (trx: Kysely<DB>) => remakeMarks(trx, dialect, order) })),
    { name: 'words of the students', run: (trx: Kysely<DB>) => remakeTerms(trx, dialect) },
  ];
}

/** The students counted at once, as those triggers would have counted them one by one (the table was empty). */
const COUNT_STUDENTS = `insert into student_counts (id_range, email_verified, students)
  select id / 4096, email_verified, count(*) from users where is_student and not is_admin group by id / 4096, email_verified`;

/**
 * SQLite: the tables' own indexes (not those of UNIQUE constraints) and the triggers that keep their
 * FTS5 indexes (migrations 0012 and 0013 name them `<index>_insert`), rebuilt afterwards with
 * FTS5's `rebuild`. Inserted one row at a time, a row of `users` costs about ten times more with
 * them than without, and the indexes are built faster from the whole table than row by row.
 */
async function sqliteSetAside(db: Kysely<DB>): Promise<SetAside[]> {
  const { rows } = await sql<{ type: string; name: string; tbl_name: string; sql: string }>`
    select type, name, tbl_name, sql from sqlite_master
    where sql is not null and (type in ('index', 'trigger') and tbl_name in (${sql.join([...BULK_TABLES])})
       or type = 'table' and sql like 'create virtual table % using fts5(%')`.execute(db);
  const indexes = rows.filter((r) => r.type === 'index');
  const fullText = rows.flatMap((r) => {
    const content = r.type === 'table' ? /content='([^']+)'/.exec(r.sql)?.[1] : undefined;
    const trigger = rows.find((t) => t.type === 'trigger' && t.name === `${r.name}_insert` && t.tbl_name === content);
    return trigger ? [{ index: r.name, trigger }] : [];
  });
  // The triggers that make a user a student on a first application and count the students
  // (migration 0027): the plan writes its students as students, and the counts are made at once.
  const students = rows.filter((r) => r.type === 'trigger' && STUDENT_TRIGGERS.includes(r.name));
  return [
    ...indexes.map((r) => ({ drop: `drop index "${r.name}"`, restore: r.sql })),
    ...students.map((r, i) => ({ drop: `drop trigger "${r.name}"`, restore: r.sql, ...(i === 0 ? { rebuild: [COUNT_STUDENTS] } : {}) })),
    ...fullText.map(({ index, trigger }) => ({
      drop: `drop trigger "${trigger.name}"`,
      restore: trigger.sql,
      rebuild: fullTextRebuild(index),
    })),
  ];
}

/**
 * The statements that make a full-text index again from its table: FTS5's `rebuild` indexes every
 * row of the content table, so an index of part of it (`staff_search`: the staff alone,
 * SEARCH_SUBSETS) is emptied and given those rows (migration 0033 repaired the ones made otherwise).
 */
function fullTextRebuild(index: string): string[] {
  const subset = Object.entries(SEARCH_SUBSETS).find(([table]) => `${table}_search` === index);
  if (!subset) return [`insert into "${index}" ("${index}") values ('rebuild')`];
  const [table, { table: rows, where }] = subset;
  const columns = SEARCH_COLUMNS[table as SearchTable].map((column) => `"${column}"`).join(', ');
  return [
    `insert into "${index}" ("${index}") values ('delete-all')`,
    `insert into "${index}" (rowid, ${columns}) select id, ${columns} from "${rows}" where ${where}`,
  ];
}

/**
 * PostgreSQL: the tables' indexes, their keys and unique constraints, and the foreign keys from and
 * to them, added again afterwards (which checks every row at once). Checked row by row, the foreign
 * keys cost more than the rest of an insert; the indexes, keys included, are built faster from the
 * whole table (at scale 10 the rows' `COPY` took 32 s instead of 44, the keys 8 s after them).
 * Removed keys last (the foreign keys depend on them), put back first.
 */
async function postgresSetAside(db: Kysely<DB>): Promise<SetAside[]> {
  const tables = sql.join([...BULK_TABLES]);
  const { rows } = await sql<SetAside>`
    select drop, restore from (
      select 1 as rank, format('alter table %I drop constraint %I', t.relname, c.conname) as drop,
             format('alter table %I add constraint %I %s', t.relname, c.conname, pg_get_constraintdef(c.oid)) as restore
      from pg_constraint c join pg_class t on t.oid = c.conrelid
      where c.contype in ('p', 'u') and t.relnamespace = current_schema()::regnamespace and t.relname in (${tables})
      union all
      select 2, format('drop index %I', i.relname), pg_get_indexdef(i.oid)
      from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
      where t.relnamespace = current_schema()::regnamespace and t.relname in (${tables})
        and not exists (select 1 from pg_constraint c where c.conrelid = t.oid and c.conindid = i.oid)
      union all
      select 3, format('alter table %I drop constraint %I', t.relname, c.conname),
             format('alter table %I add constraint %I %s', t.relname, c.conname, pg_get_constraintdef(c.oid))
      from pg_constraint c join pg_class t on t.oid = c.conrelid left join pg_class r on r.oid = c.confrelid
      where c.contype = 'f' and t.relnamespace = current_schema()::regnamespace
        and (t.relname in (${tables}) or r.relnamespace = t.relnamespace and r.relname in (${tables}))
    ) as aside order by rank`.execute(db);
  // The triggers that make a user a student and count the students (migration 0027), as on SQLite.
  const { rows: triggers } = await sql<{ table: string; name: string }>`
    select c.relname as table, t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
    where not t.tgisinternal and t.tgname in (${sql.join(STUDENT_TRIGGERS)})`.execute(db);
  return [
    ...rows,
    ...triggers.map((t, i) => ({
      drop: `alter table "${t.table}" disable trigger "${t.name}"`,
      restore: `alter table "${t.table}" enable trigger "${t.name}"`,
      ...(i === 0 ? { rebuild: [COUNT_STUDENTS] } : {}),
    })),
  ];
}

/**
 * SQLite: this connection's settings for the load, and the statements that set them back. Foreign
 * keys are not checked: each check of a student looks up a row of a table far larger than the page
 * cache, and the plan only refers to rows it wrote before. Nothing is synced to disk until the load
 * is over (a checkpoint would otherwise wait for the disk several times a table). The sorts that
 * build the indexes again use helper threads.
 */
async function sqliteLoadPragmas(db: Kysely<DB>): Promise<string[]> {
  const restore: string[] = [];
  for (const [name, value] of [
    ['foreign_keys', 'off'],
    ['synchronous', 'off'],
    // The indexes' sorts on every core (up to four): a million students' index in 2.6 s, not 3.7.
    ['threads', String(Math.min(4, availableParallelism()))],
  ] as const) {
    const { rows } = await sql.raw<Record<string, number>>(`pragma ${name}`).execute(db);
    restore.push(`pragma ${name} = ${Number(rows[0]?.[name])}`);
    await sql.raw(`pragma ${name} = ${value}`).execute(db);
  }
  return restore;
}

async function run(db: Kysely<DB>, statements: string[]): Promise<void> {
  for (const statement of statements) await db.executeQuery(CompiledQuery.raw(statement));
}

/** A step of what a load does after its rows: one statement of the schema put back, or a remake. */
interface FinishingStep {
  name: string;
  run: (trx: Kysely<DB>) => Promise<unknown>;
}

/** What a load's finishing step is called in its progress: the index or trigger it makes, or its statement's first words. */
function stepName(statement: string): string {
  const made = /^create (?:unique )?(index|trigger) (?:if not exists )?"?([\w]+)"?/i.exec(statement);
  if (made) return `${(made[1] as string).toLowerCase()} ${made[2]}`;
  const constraint = /^alter table "?(\w+)"? add constraint "?(\w+)"?/i.exec(statement);
  if (constraint) return `constraint ${constraint[2]}`;
  const enabled = /^alter table "?(\w+)"? enable trigger "?(\w+)"?/i.exec(statement);
  if (enabled) return `trigger ${enabled[2]}`;
  const filled = /^insert into "?(\w+)"?/i.exec(statement);
  return filled ? `rows of ${filled[1]}` : statement.slice(0, 40);
}

/** The schema put back (`aside`) and the marks and words remade, as steps. */
function finishingSteps(dialect: Dialect, aside: SetAside[]): FinishingStep[] {
  const statements = aside.flatMap((a) => [a.restore, ...(a.rebuild ?? [])]);
  return [
    ...statements.map((statement) => ({ name: stepName(statement), run: (trx: Kysely<DB>) => run(trx, [statement]) })),
    ...remakeEveryMark(dialect),
  ];
}

/** Runs `steps` in order, each through `transaction`, telling `onStep` of each before it starts. */
async function finish(
  steps: FinishingStep[],
  transaction: (work: (trx: Kysely<DB>) => Promise<unknown>) => Promise<unknown>,
  onStep: (step: LoadStep) => void,
): Promise<void> {
  for (const [i, step] of steps.entries()) {
    onStep({ step: step.name, done: i, steps: steps.length });
    await transaction(step.run);
  }
}

/**
 * Inserts for loading large data sets (the benchmark data of `academy seed --scale`): rows carry
 * their own ids, so that rows of other tables can refer to them without reading anything back. Only
 * for an empty catalogue; the services are the way to change real data.
 */
export function createBulkRepository(db: Kysely<DB>, dialect: Dialect, copyFrom?: CopyFrom) {
  /** SQLite: inserts in statements of many rows, `perTransaction` rows a transaction. */
  const inserter =
    (perTransaction: number): BulkInsert =>
    async (table, rows, onProgress) => {
      const iterator = (rows as Iterable<Row>)[Symbol.iterator]();
      let next = iterator.next();
      if (next.done) return;
      // Every row has the columns of the first.
      const batch = sqliteBatch(table, Object.keys(next.value));
      let written = 0;
      while (!next.done) {
        const end = written + perTransaction;
        await db.transaction().execute(async (trx) => {
          while (!next.done && written < end) {
            batch.add(next.value);
            next = iterator.next();
            if (batch.full || next.done) {
              written += batch.size;
              await batch.flush(trx);
              onProgress(written);
            }
          }
        });
      }
    };

  return {
    /**
     * Runs `work`, which inserts into the empty tables, with their secondary indexes, their keys and
     * unique and foreign key constraints (PostgreSQL) and full-text triggers (SQLite) set aside, then
     * puts each back from its own definition and rebuilds what it maintains (telling `onStep` of each
     * step: a few minutes at a million students): the schema ends as the migrations made it. On
     * PostgreSQL all of it is one transaction (a failed load leaves nothing behind); on SQLite the
     * rows are committed in transactions of SQLITE_TRANSACTION_ROWS, and what was set aside is put
     * back even when the load fails.
     */
    load: async (work: (insert: BulkInsert) => Promise<void>, onStep: (step: LoadStep) => void = () => {}): Promise<void> => {
      if (dialect === 'postgres') {
        await db.transaction().execute(async (trx) => {
          const aside = await postgresSetAside(trx);
          // The indexes are built from whole tables: with the default 64 MB a build of five
          // million entries sorts in files.
          await sql`set local maintenance_work_mem = '256MB'`.execute(trx);
          // In the reverse order of putting back: the foreign keys before the keys they refer to.
          await run(trx, aside.map((a) => a.drop).reverse());
          if (!copyFrom) throw new Error('A PostgreSQL load needs a connection that copies (openCopyingConnection)');
          await work(copying(copyFrom));
          await finish(finishingSteps(dialect, aside), (step) => step(trx), onStep);
        });
        return;
      }
      const pragmas = await sqliteLoadPragmas(db);
      const aside = await db.transaction().execute(async (trx) => {
        const found = await sqliteSetAside(trx);
        await run(
          trx,
          found.map((a) => a.drop),
        );
        return found;
      });
      try {
        await work(inserter(SQLITE_TRANSACTION_ROWS));
      } finally {
        // A transaction per step: one for all of them grew the log to gigabytes, and the students'
        // words, read and written through it last, took 53 s instead of 37 (scale 10).
        await finish(finishingSteps(dialect, aside), (step) => db.transaction().execute(step), onStep);
        await run(db, pragmas);
      }
    },

    /** The highest id of each table (0 when empty): new rows are numbered after it. */
    maxIds: async (): Promise<Record<BulkTable, number>> => {
      const ids = {} as Record<BulkTable, number>;
      for (const table of BULK_TABLES) {
        const row = await (db as Kysely<any>).selectFrom(table).select(sql<number | string | null>`max(id)`.as('id')).executeTakeFirst();
        ids[table] = Number(row?.id ?? 0);
      }
      return ids;
    },

    /** Row counts of the tables. */
    counts: async (): Promise<Record<BulkTable, number>> => {
      const counts = {} as Record<BulkTable, number>;
      for (const table of BULK_TABLES) {
        const row = await (db as Kysely<any>).selectFrom(table).select(sql<number | string>`count(*)`.as('n')).executeTakeFirstOrThrow();
        counts[table] = Number(row.n);
      }
      return counts;
    },

    /**
     * After rows were inserted with their ids: PostgreSQL's identity sequences continue after the
     * highest id (SQLite's AUTOINCREMENT keeps track by itself), and both databases refresh the
     * statistics their planners choose indexes by. Not inside a transaction (VACUUM cannot run in one).
     */
    finish: async (): Promise<void> => {
      if (dialect === 'postgres') {
        for (const table of BULK_TABLES) {
          await sql`select setval(pg_get_serial_sequence(${table}, 'id'), greatest((select max(id) from ${sql.table(table)}), 1))`.execute(
            db,
          );
        }
        // VACUUM also marks the new pages all-visible, so that counts can be answered from indexes alone.
        await sql`vacuum analyze`.execute(db);
      } else {
        await sql`analyze`.execute(db);
      }
    },
  };
}

export type BulkRepository = ReturnType<typeof createBulkRepository>;
