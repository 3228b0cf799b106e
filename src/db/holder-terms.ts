import { type Kysely, sql } from 'kysely';
import type { Dialect } from './database.ts';

// Rows held by a student, by the student's terms (ADR 0026): each certificate and each enrolment once
// per term of its holder in `certificate_terms (term, id)` and `enrolment_terms (term, id)`, so that
// the rows of the students a search text names are a range of a key per term, as the students
// themselves are, where they were found through each student (a surname's 16,000 students hold
// 8,000 certificates and 80,000 enrolments: the count probed a student for every five of its rows,
// the page walked the table in id order testing each row's holder). Triggers on the tables and on
// `student_terms` keep them in the writing transaction: a renamed student's terms are rewritten by
// the triggers on `users`, and theirs rewrite the rows' terms.
//
// Enrolments are many (at 3.2 terms a holder, 16 million rows at a million students): the seed's
// fill of them costs 11 s on SQLite and 20 s on PostgreSQL at that size, and the grouped search
// answers half as many searches again (docs/performance.md, "2026-12-01 (evening) · enrolments by
// their holder's terms").

/** The tables whose rows are kept by their holder's terms: the table of `(term, id)`, and the column that names the holder. */
export const HOLDER_TERMS = {
  certificates: { terms: 'certificate_terms', holder: 'user_id' },
  enrolments: { terms: 'enrolment_terms', holder: 'user_id' },
} as const;

export type HeldTable = keyof typeof HOLDER_TERMS;

/** Every held table: what the seed's remake of the terms works on. */
const EVERY_HELD = Object.keys(HOLDER_TERMS) as HeldTable[];

/** The terms' table of `table`'s rows when `column` names their holder, else null. */
export function holderTermsOf(table: string, column: string): string | null {
  const held = (HOLDER_TERMS as Record<string, { terms: string; holder: string }>)[table];
  return held && held.holder === column ? held.terms : null;
}

/** The names of the triggers that keep `table`'s terms: on the table itself, and on `student_terms`. */
function triggerNames(table: HeldTable) {
  return {
    own: ['insert', 'update', 'delete'].map((event) => `${table}_terms_${event}`),
    students: ['insert', 'delete'].map((event) => `student_terms_${table}_${event}`),
  };
}

/** The triggers on the held tables themselves (set aside by a bulk load with the students' own, then made again). */
export const HELD_TABLE_TRIGGERS: readonly string[] = EVERY_HELD.flatMap((table) => triggerNames(table).own);

/** The statements a trigger runs: a held row's terms added (`new`) or removed (`old`), and a student's term's rows. */
function statements(table: HeldTable) {
  const { terms, holder } = HOLDER_TERMS[table];
  const [t, h] = [sql.table(terms), sql.ref(holder)];
  return {
    addRow: sql`insert into ${t} (term, id) select student_terms.term, new.id from student_terms where student_terms.id = new.${h}`,
    // By the holder's terms, which are the row's: its key, where its id alone would need an index of
    // its own. Before the row goes (the delete's trigger): a student removed with their certificates
    // has their terms removed by a trigger on `users`, and PostgreSQL runs the after triggers of the
    // certificates' cascaded delete after it, when neither the terms nor the certificates were left
    // to say which rows to remove (they stayed).
    removeRow: sql`delete from ${t} where ${t}.id = old.id and ${t}.term in (select student_terms.term from student_terms where student_terms.id = old.${h})`,
    addTerm: sql`insert into ${t} (term, id) select new.term, held.id from ${sql.table(table)} as held where held.${h} = new.id`,
    removeTerm: sql`delete from ${t} where ${t}.term = old.term and ${t}.id in (select held.id from ${sql.table(table)} as held where held.${h} = old.id)`,
  };
}

/**
 * Drops the triggers that keep `tables`' terms, every held table's by default (`remakeTerms` rewrites
 * the students' terms without them, then fills the tables at once).
 */
export async function dropHolderTriggers(db: Kysely<any>, dialect: Dialect, tables: readonly HeldTable[] = EVERY_HELD): Promise<void> {
  for (const table of tables) {
    const { own, students } = triggerNames(table);
    for (const name of own) {
      await (dialect === 'sqlite'
        ? sql`drop trigger if exists ${sql.id(name)}`
        : sql`drop trigger if exists ${sql.id(name)} on ${sql.table(table)}`
      ).execute(db);
    }
    for (const name of students) {
      await (dialect === 'sqlite'
        ? sql`drop trigger if exists ${sql.id(name)}`
        : sql`drop trigger if exists ${sql.id(name)} on student_terms`
      ).execute(db);
    }
  }
}

/** Makes the triggers that keep `tables`' terms (every held table's by default) in the writing transaction. */
export async function createHolderTriggers(db: Kysely<any>, dialect: Dialect, tables: readonly HeldTable[] = EVERY_HELD): Promise<void> {
  await dropHolderTriggers(db, dialect, tables);
  for (const table of tables) {
    const s = statements(table);
    const { holder } = HOLDER_TERMS[table];
    const [onInsert, onUpdate, onDelete] = triggerNames(table).own as [string, string, string];
    const [termInsert, termDelete] = triggerNames(table).students as [string, string];
    const t = sql.table(table);
    if (dialect === 'sqlite') {
      await sql`create trigger ${sql.id(onInsert)} after insert on ${t} begin ${s.addRow}; end`.execute(db);
      await sql`create trigger ${sql.id(onUpdate)} after update of ${sql.ref(holder)} on ${t} begin ${s.removeRow}; ${s.addRow}; end`.execute(
        db,
      );
      await sql`create trigger ${sql.id(onDelete)} before delete on ${t} begin ${s.removeRow}; end`.execute(db);
      await sql`create trigger ${sql.id(termInsert)} after insert on student_terms begin ${s.addTerm}; end`.execute(db);
      await sql`create trigger ${sql.id(termDelete)} after delete on student_terms begin ${s.removeTerm}; end`.execute(db);
      continue;
    }
    const rowFunction = sql.id(`${table}_terms`);
    const termFunction = sql.id(`student_terms_${table}`);
    await sql`create or replace function ${rowFunction}() returns trigger language plpgsql as $$
      begin
        if tg_op <> 'INSERT' then ${s.removeRow}; end if;
        if tg_op = 'DELETE' then return old; end if;
        ${s.addRow};
        return null;
      end $$`.execute(db);
    await sql`create or replace function ${termFunction}() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then ${s.addTerm}; else ${s.removeTerm}; end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger ${sql.id(onInsert)} after insert on ${t} for each row execute function ${rowFunction}()`.execute(db);
    await sql`create trigger ${sql.id(onUpdate)} after update of ${sql.ref(holder)} on ${t}
      for each row when (old.${sql.ref(holder)} is distinct from new.${sql.ref(holder)}) execute function ${rowFunction}()`.execute(db);
    await sql`create trigger ${sql.id(onDelete)} before delete on ${t} for each row execute function ${rowFunction}()`.execute(db);
    await sql`create trigger ${sql.id(termInsert)} after insert on student_terms for each row execute function ${termFunction}()`.execute(
      db,
    );
    await sql`create trigger ${sql.id(termDelete)} after delete on student_terms for each row execute function ${termFunction}()`.execute(
      db,
    );
  }
}

/**
 * `tables`' terms made again from the students' terms and the tables, in key order (the scale seed
 * after its load, every held table; a migration that adds one, that one); PostgreSQL's key is made
 * after the rows.
 */
export async function fillHolderTerms(db: Kysely<any>, dialect: Dialect, tables: readonly HeldTable[] = EVERY_HELD): Promise<void> {
  for (const table of tables) {
    const { terms, holder } = HOLDER_TERMS[table];
    const key = `${terms}_pk`;
    if (dialect === 'postgres') await sql`alter table ${sql.table(terms)} drop constraint if exists ${sql.id(key)}`.execute(db);
    await sql`delete from ${sql.table(terms)}`.execute(db);
    // SQLite's rows sorted into the key's order first: its sorter spills to files past a few
    // megabytes, and the enrolments' 16 million rows at scale 10 went in 11 s sorted, 53 s as they
    // came (each term's rows in its holders' order, a place in the term's range each). PostgreSQL
    // makes its key after the rows, and is told the tables' sizes first: after the seed's load,
    // without statistics, it merged the two through their indexes, reading each holder's rows
    // from the table.
    if (dialect === 'postgres') await sql`analyze student_terms, ${sql.table(table)}`.execute(db);
    const held = sql`${sql.table(table)} as held on held.${sql.ref(holder)} = student_terms.id`;
    const rows =
      dialect === 'sqlite'
        ? sql`select student_terms.term, held.id from student_terms cross join ${held} order by 1, 2`
        : sql`select student_terms.term, held.id from student_terms join ${held}`;
    await sql`insert into ${sql.table(terms)} (term, id) ${rows}`.execute(db);
    if (dialect === 'postgres') await sql`alter table ${sql.table(terms)} add constraint ${sql.id(key)} primary key (term, id)`.execute(db);
  }
}

/**
 * Makes `tables`' terms tables and their triggers, then fills them (migration 0039, the certificates;
 * 0042, the enrolments).
 */
export async function createHolderTerms(db: Kysely<any>, dialect: Dialect, tables: readonly HeldTable[]): Promise<void> {
  for (const table of tables) {
    const { terms } = HOLDER_TERMS[table];
    await db.schema
      .createTable(terms)
      .addColumn('term', 'text', (col) => col.notNull())
      .addColumn('id', 'integer', (col) => col.notNull())
      // PostgreSQL's key is added after the rows (`fillHolderTerms`).
      .$call((t) => (dialect === 'sqlite' ? t.addPrimaryKeyConstraint(`${terms}_pk`, ['term', 'id']).modifyEnd(sql`without rowid`) : t))
      .execute();
  }
  // The triggers first: making them locks the held tables and `student_terms` against writes until
  // the migration commits, so that a row another instance writes meanwhile is either in the fill or
  // waits for the triggers (filled first, one committed between the two was missed).
  await createHolderTriggers(db, dialect, tables);
  await fillHolderTerms(db, dialect, tables);
  if (dialect === 'postgres') for (const table of tables) await sql`analyze ${sql.table(HOLDER_TERMS[table].terms)}`.execute(db);
}
