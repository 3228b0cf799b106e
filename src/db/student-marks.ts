import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Dialect } from './database.ts';

// Marks in the students' orders (migration 0031, ADR 0024). Every order of GET /students other than id
// is cut into buckets of about MARK_SIZE students: a bucket starts at its mark, a (key, id) of that
// order, and holds the students from it up to the next mark, counted by `email_verified` in the
// writing transaction by triggers, like `student_counts` for ranges of ids. A page finds its bucket
// by summing the counts of the marks before it (a few hundred rows at a million students) and skips
// at most a bucket's students in the index: a page deep in the list costs what the first one does.
// The first mark of each order is below every key (`lowestMark`), so that every student has a
// bucket. Triggers only count; buckets that grew past SPLIT_SIZE are cut again by
// `splitCrowdedMarks` (the task `students.split_marks`), which never changes what a page shows, only
// its cost.

/** The orders of the students' list that have marks (id order has `student_counts`). */
export const MARK_ORDERS = ['name', 'email', 'created_at', 'updated_at'] as const;
export type MarkOrder = (typeof MARK_ORDERS)[number];

/** Students per bucket when marks are made. */
export const MARK_SIZE = 4096;

/** A bucket with more students than this is cut again (`splitCrowdedMarks`). */
export const SPLIT_SIZE = 4 * MARK_SIZE;

/** The table of an order's marks. */
export function marksTable(order: MarkOrder) {
  return `student_marks_${order}` as const;
}

/** The first mark of `order`: a key below every key (with id 0), as a parameter's text. */
export function lowestMark(dialect: Dialect, order: MarkOrder): Mark {
  const time = order === 'created_at' || order === 'updated_at';
  return { mark: dialect === 'postgres' && time ? '-infinity' : '', id: 0 };
}

/**
 * A mark's key as the database writes it (PostgreSQL's timestamps as its own text, -infinity
 * included, not through a JavaScript Date); passed back as a parameter, it is cast to the column's type.
 */
export function markText(dialect: Dialect, column: string): RawBuilder<string> {
  return dialect === 'postgres' ? sql<string>`cast(${sql.ref(column)} as text)` : sql<string>`${sql.ref(column)}`;
}

const STUDENT = sql`users.is_student and not users.is_admin`;

/** A mark: where a bucket starts (its key as text, `markText`). */
export interface Mark {
  mark: string;
  id: number;
}

/**
 * Counts the students of the bucket that starts at mark `from` again, up to the next mark, and cuts
 * it into buckets of `size` students. Run in a transaction of its own (`trx`): on PostgreSQL it first
 * locks the marks table against the triggers' updates, so that no student is counted by a bucket
 * this is remaking, and finds the next mark after that; SQLite has one writer at a time. Returns how
 * many marks it added (none when `from` is no longer a mark).
 */
export async function cutBucket(
  trx: Kysely<any>,
  dialect: Dialect,
  order: MarkOrder,
  from: Mark,
  size: number = MARK_SIZE,
): Promise<number> {
  const table = sql.table(marksTable(order));
  const key = sql.ref(`users.${order}`);
  const start = sql`(${from.mark}, ${from.id})`;
  if (dialect === 'postgres') await sql`lock table ${table} in exclusive mode`.execute(trx);
  // Whether `from` is still a mark (a remake may have removed it).
  const held = await sql`update ${table} set verified = verified where mark = ${from.mark} and id = ${from.id}`.execute(trx);
  if (Number(held.numAffectedRows ?? 0) === 0) return 0;
  const { rows: next } = await sql<Mark>`select ${markText(dialect, 'mark')} as mark, id from ${table}
    where (mark, id) > ${start} order by mark, id limit 1`.execute(trx);
  const to = next[0];
  const end = to ? sql`(${to.mark}, ${to.id})` : null;
  const inRange = sql`${STUDENT} and (${key}, users.id) >= ${start}${end ? sql` and (${key}, users.id) < ${end}` : sql``}`;
  const ranked = sql`(select ${key} as k, users.id as id, users.email_verified as v,
      row_number() over (order by ${key}, users.id) - 1 as n
    from users where ${inRange}) as ranked`;
  const verified = sql`sum(case when ranked.v then 1 else 0 end)`;
  const unverified = sql`sum(case when ranked.v then 0 else 1 end)`;
  const each = sql.lit(size);
  const { rows } = await sql<{ verified: number | string | null; unverified: number | string | null }>`
    select ${verified} as verified, ${unverified} as unverified
    from (select users.email_verified as v from users where ${inRange} order by ${key}, users.id limit ${each}) as ranked`.execute(trx);
  await sql`update ${table} set verified = ${Number(rows[0]?.verified ?? 0)}, unverified = ${Number(rows[0]?.unverified ?? 0)}
    where mark = ${from.mark} and id = ${from.id}`.execute(trx);
  const added = await sql`insert into ${table} (mark, id, verified, unverified)
    select max(case when ranked.n % ${each} = 0 then ranked.k end), max(case when ranked.n % ${each} = 0 then ranked.id end),
      ${verified}, ${unverified}
    from ${ranked}
    where ranked.n >= ${each}
    group by ranked.n / ${each}`.execute(trx);
  return Number(added.numAffectedRows ?? 0);
}

/**
 * Makes an order's marks again from the students (`trx`, a transaction of its own): the lowest mark,
 * and one every `size` students after it.
 */
export async function remakeMarks(trx: Kysely<any>, dialect: Dialect, order: MarkOrder, size: number = MARK_SIZE): Promise<void> {
  const table = sql.table(marksTable(order));
  const lowest = lowestMark(dialect, order);
  if (dialect === 'postgres') await sql`lock table ${table} in exclusive mode`.execute(trx);
  await sql`delete from ${table}`.execute(trx);
  await sql`insert into ${table} (mark, id, verified, unverified) values (${lowest.mark}, 0, 0, 0)`.execute(trx);
  await cutBucket(trx, dialect, order, lowest, size);
}

/** The marks of `order` whose buckets hold more than `than` students. */
export async function crowdedMarks(db: Kysely<any>, dialect: Dialect, order: MarkOrder, than: number = SPLIT_SIZE): Promise<Mark[]> {
  const { rows } = await sql<Mark>`select ${markText(dialect, 'mark')} as mark, id from ${sql.table(marksTable(order))}
    where verified + unverified > ${than} order by mark, id`.execute(db);
  return rows.map((row) => ({ mark: row.mark, id: Number(row.id) }));
}

/**
 * Cuts every bucket of every order that holds more than SPLIT_SIZE students, each in a transaction
 * of its own (the task `students.split_marks`). Returns the buckets cut and the marks added.
 */
export async function splitCrowdedMarks(
  db: Kysely<any>,
  dialect: Dialect,
  size: number = MARK_SIZE,
): Promise<{ cut: number; added: number }> {
  let cut = 0;
  let added = 0;
  for (const order of MARK_ORDERS) {
    for (const mark of await crowdedMarks(db, dialect, order, Math.max(size * 4, 1))) {
      added += await db.transaction().execute((trx) => cutBucket(trx, dialect, order, mark, size));
      cut += 1;
    }
  }
  return { cut, added };
}

/**
 * SQL that adds `step` (1 or -1) to the bucket of `row` ('new' or 'old', in a trigger on users) in
 * `order`, under its `email_verified`, when `when` holds. The bucket is the last mark at or before the row's key.
 */
export function bumpMark(order: MarkOrder, row: 'new' | 'old', step: 1 | -1, when: RawBuilder<unknown> = sql`true`): RawBuilder<unknown> {
  const table = sql.table(marksTable(order));
  const r = sql.raw(row);
  const by = sql.lit(step);
  return sql`update ${table} set
      verified = verified + case when ${r}.email_verified then ${by} else 0 end,
      unverified = unverified + case when ${r}.email_verified then 0 else ${by} end
    where ${when} and (mark, id) = (select m.mark, m.id from ${table} as m where (m.mark, m.id) <= (${r}.${sql.raw(order)}, ${r}.id)
      order by m.mark desc, m.id desc limit 1)`;
}
