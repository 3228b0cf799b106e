import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Dialect } from './database.ts';
import { createHolderTriggers, dropHolderTriggers, fillHolderTerms } from './holder-terms.ts';
import { executePrepared } from './prepared.ts';
import { databaseVersion } from './totals.ts';

// The words of the students' names and emails, each with the student's order keys (migration 0032,
// ADR 0026). A search text that holds no separator lies within one word of the text it is found in,
// so the students that contain it are those with a word that contains it. When one word of all the
// students' words contains the text (`okafor`, `amelia`), its students are a range of
// `student_terms` in any order of the list (a few words' ranges are merged, `MAX_WORDS`): a page deep
// in the 16,000 students of a surname is read from an index, not sorted from every match. Triggers on `users` keep the words in the writing
// transaction.
//
// Not words: the parts made only of digits (the numbers of emails), and the email's domain, which
// nearly every student shares. A text that could lie in either is searched as before: one with
// digits alone, or one that some domain of `student_domains` contains.
//
// The staff's (migration 0041, PostgreSQL): `staff_terms (term, id)`, made as the students' terms
// are (`STAFF`), for the staff group of `GET /search`; their words join the same vocabularies.
//
// Pairs (migration 0034): a text with one space (`amelia smith`, `a smi`) lies across two words, the
// end of one and the start of the next. The students' terms also hold each pair of neighbouring
// words of a name (and of an email's local part) as written, `amelia smith`: the students that
// contain such a text are those with a pair that contains it, a range again. Their vocabulary
// `student_pairs` is kept by the pair's second word, which the text's second part begins.

/** The characters that end a word (and that a text searched through the words must not hold). */
export const WORD_SEPARATORS = ' .@';

/** The separators other than the space, which PostgreSQL's `words` turns into spaces before it cuts. */
const OTHER_SEPARATORS = WORD_SEPARATORS.replace(' ', '');

/** The orders of the students' list that `student_terms` has an index of (id order is its key). */
export const TERM_ORDERS = ['name', 'email', 'created_at', 'updated_at'] as const;

/**
 * Each order's index of `student_terms`: the term, the order's key and id, with `email_verified` to
 * filter on; on PostgreSQL also its key (term, id), made after the rows (SQLite's is the table's).
 */
export function termIndexes(dialect: Dialect): string[] {
  if (dialect === 'sqlite') {
    return TERM_ORDERS.map((order) => `create index student_terms_${order} on student_terms (term, ${order}, id, email_verified)`);
  }
  return [
    'alter table student_terms add constraint student_terms_pk primary key (term, id) include (email_verified)',
    ...TERM_ORDERS.map((order) => `create index student_terms_${order} on student_terms (term, ${order}, id) include (email_verified)`),
  ];
}

/**
 * The index of the terms by student: a student's terms are removed by id (`removeTerms`, on every
 * update of a student), which read every term without it: 170–330 ms on PostgreSQL (a parallel scan
 * of 3.2 million rows), 22–34 ms on SQLite (a skip-scan of 3,729 terms) at a million students.
 */
export const TERMS_BY_STUDENT = 'create index if not exists student_terms_id on student_terms (id)';

/**
 * Whether the student whose id is in column `id` holds none of the `earlier` terms (values, or
 * stand-ins of a statement compiled once): a text's later terms leave to the earlier ones the
 * students who hold both, so that merged ranges hold each student once (the students' list and
 * `GET /search`, ADR 0026). `table` is another table of `(term, id)`: a held table's rows by their
 * holder's terms (src/db/holder-terms.ts), `id` then one of those rows.
 */
export function notInEarlierTerms(earlier: readonly unknown[], id: string, table = 'student_terms'): RawBuilder<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from ${sql.table(table)} as earlier_term where earlier_term.term in (${sql.join(earlier)}) and earlier_term.id = ${sql.ref(id)})`;
}

/**
 * Whose terms a statement adds: a trigger's `new` (`old`), every row of `users`, or (SQLite: the
 * scale seed, the upgrade that adds pairs) every row of `term_texts`, the students with their texts
 * lowercased once (`addForEveryStudent`).
 */
type Row = 'new' | 'old' | 'users' | typeof TEXTS;

/**
 * SQLite's `lower` is this application's JavaScript function (Unicode case folding): over a million
 * students each call's string lived until its statement ended, so every such statement grew V8's
 * heap by about 70 MiB until a full collection (the seed's peak went from 551 to 894 MiB with the
 * pairs' four statements). The seed and migration 0034 lowercase each student's texts once, into this
 * temporary table.
 */
const TEXTS = 'term_texts';

/** Whether `row` is every student at once (a seed or a migration) rather than a trigger's row. */
const isBulk = (row: Row) => row === 'users' || row === TEXTS;

/** The lowercased words of a user's name and the local part of its email (as a table of `word`). */
function words(dialect: Dialect, row: Row): RawBuilder<unknown> {
  const r = sql.raw(row);
  if (dialect === 'postgres') {
    // Each student's words without repeats (a `distinct` over every student's words sorted them all).
    const text = sql`translate(lower(${r}.name || ' ' || split_part(${r}.email, '@', 1)), ${sql.lit(OTHER_SEPARATORS)}, ${sql.lit(' '.repeat(OTHER_SEPARATORS.length))})`;
    return sql`lateral (select distinct s.word from string_to_table(${text}, ' ') as s(word) where s.word ~ '[^0-9]') as w`;
  }
  // A JSON array of the parts: the text quoted as one JSON string (which escapes what JSON must),
  // then cut at each separator (none of which an escape holds).
  const lowered =
    row === TEXTS
      ? sql`${r}.lname || ' ' || ${r}.llocal`
      : sql`lower(${r}.name || ' ' || substr(${r}.email, 1, instr(${r}.email, '@') - 1))`;
  const text = sql`json_quote(${lowered})`;
  const cut = [...WORD_SEPARATORS].reduce((t, separator) => sql`replace(${t}, ${sql.lit(separator)}, '","')`, text);
  return sql`json_each('[' || ${cut} || ']') as w`;
}

/** The column of `words` that holds a word. */
function word(dialect: Dialect): RawBuilder<unknown> {
  return sql.ref(dialect === 'postgres' ? 'w.word' : 'w.value');
}

/** The parts that are words: not empty, not digits alone (PostgreSQL's `words` keeps only those). */
function isWord(dialect: Dialect): RawBuilder<unknown> {
  return dialect === 'postgres' ? sql`true` : sql`w.value glob '*[^0-9]*'`;
}

function domain(dialect: Dialect, row: Row): RawBuilder<unknown> {
  const r = sql.raw(row);
  return dialect === 'postgres' ? sql`split_part(${r}.email, '@', 2)` : sql`substr(${r}.email, instr(${r}.email, '@') + 1)`;
}

/**
 * Whose terms a table keeps: the students' (`student_terms`, with the students' order keys), or on
 * PostgreSQL the staff's (`staff_terms`, migration 0041). Both share the vocabularies: a word of
 * `student_words` that no student holds only leaves a student's range empty.
 */
export interface TermHolders {
  table: 'student_terms' | 'staff_terms';
  /** Whether the user of `row` is one of them. */
  holds: (row: Row) => RawBuilder<unknown>;
  /** The columns written after `term`, and their values from `row`. */
  columns: string;
  values: (row: Row) => RawBuilder<unknown>;
  /** The columns of `users` whose update rewrites a user's terms. */
  keys: readonly string[];
}

export const STUDENTS: TermHolders = {
  table: 'student_terms',
  holds: (row) => (row === TEXTS ? sql`true` : sql`(${sql.raw(row)}.is_student and not ${sql.raw(row)}.is_admin)`),
  columns: 'id, email_verified, name, email, created_at, updated_at',
  values: (row) => {
    const r = sql.raw(row);
    return sql`${r}.id, ${r}.email_verified, ${r}.name, ${r}.email, ${r}.created_at, ${r}.updated_at`;
  },
  keys: ['name', 'email', 'email_verified', 'is_student', 'is_admin', 'created_at', 'updated_at'],
};

/**
 * The staff's terms (PostgreSQL, migration 0041): `GET /search` counts and pages the staff a text
 * names from a range per term, where it read the heap rows of every trigram match to recheck them
 * (a surname's staff group, 4–6 ms of its statement at a hundred thousand staff). SQLite's staff
 * group reads its FTS5 index in rowid order, which costs it a fraction of that.
 */
export const STAFF: TermHolders = {
  table: 'staff_terms',
  holds: (row) => sql`(${sql.raw(row)}.is_admin)`,
  columns: 'id',
  values: (row) => sql`${sql.raw(row)}.id`,
  keys: ['name', 'email', 'is_admin'],
};

/**
 * The statements that add a user's words (`row`: the trigger's `new`, or `users` over every row)
 * when it is a student: its terms, and its words and domain to the vocabularies, which only grow (a
 * word no student holds any more only makes a search take the other way).
 */
export function addWords(dialect: Dialect, row: Row, holders = STUDENTS): RawBuilder<unknown>[] {
  const r = sql.raw(row);
  const from = isBulk(row) ? sql`${r} cross join ${words(dialect, row)}` : words(dialect, row);
  const ignore = dialect === 'sqlite' ? sql`or ignore` : sql``;
  const nothing = dialect === 'sqlite' ? sql`` : sql`on conflict do nothing`;
  const table = sql.table(holders.table);
  const holds = holders.holds(row);
  return [
    // SQLite skips a word the student already has (cheaper than `distinct` over a million students).
    // Every student's words in the order of the key (SQLite writes them faster so).
    sql`insert ${ignore} into ${table} (term, ${sql.raw(holders.columns)})
      select ${word(dialect)}, ${holders.values(row)}
      from ${from} where ${holds} and ${isWord(dialect)} ${isBulk(row) && dialect === 'sqlite' ? sql`order by 1, 2` : sql``}`,
    isBulk(row)
      ? sql`insert ${ignore} into student_words (word) select distinct term from ${table} ${nothing}`
      : sql`insert ${ignore} into student_words (word) select distinct ${word(dialect)} from ${from} where ${holds} and ${isWord(dialect)} ${nothing}`,
    isBulk(row)
      ? sql`insert ${ignore} into student_domains (domain) select distinct ${domain(dialect, row)} from ${r} where ${holds} ${nothing}`
      : sql`insert ${ignore} into student_domains (domain) select ${domain(dialect, row)} where ${holds} ${nothing}`,
  ];
}

/**
 * The neighbouring words of a user's name and of its email's local part, each pair as written with
 * the one space between (as a table of `pair`, `first`, `second`): the text split at spaces alone,
 * so that a pair holds its words' dots and digits. The two texts are apart: no pair joins the
 * name's last word to the email's first. Emails hold no space today; their pairs cost nothing.
 */
function postgresPairs(row: Row): RawBuilder<unknown> {
  const r = sql.raw(row);
  return sql`lateral (select distinct s.a[i] || ' ' || s.a[i + 1] as pair, s.a[i] as first, s.a[i + 1] as second
    from (select string_to_array(lower(${r}.name), ' ') as a union all select string_to_array(lower(split_part(${r}.email, '@', 1)), ' ')) as s,
      generate_subscripts(s.a, 1) as i
    where i < cardinality(s.a) and s.a[i] <> '' and s.a[i + 1] <> '') as p`;
}

/** SQLite: the pairs of one text (`json_each` of its parts, each joined to the next), as `a` and `b`. */
function sqlitePairs(text: RawBuilder<unknown>): RawBuilder<unknown> {
  const parts = sql`'[' || replace(json_quote(${text}), ' ', '","') || ']'`;
  return sql`json_each(${parts}) as a join json_each(${parts}) as b on b.key = a.key + 1 and a.value <> '' and b.value <> ''`;
}

/** The statements that add a student's pairs of words to its terms and to `student_pairs` (see `addWords`). */
export function addPairs(dialect: Dialect, row: Row, holders = STUDENTS): RawBuilder<unknown>[] {
  const r = sql.raw(row);
  const columns = holders.values(row);
  const table = sql.table(holders.table);
  const holds = holders.holds(row);
  if (dialect === 'postgres') {
    const from = row === 'users' ? sql`users cross join ${postgresPairs(row)}` : postgresPairs(row);
    return [
      sql`insert into ${table} (term, ${sql.raw(holders.columns)})
        select p.pair, ${columns} from ${from} where ${holds}`,
      // Over every student, the vocabulary is read from the pairs just written (a term with a space
      // is a pair, cut at it) rather than cut from every name again: 5.4 s → 1.0 s at a million.
      isBulk(row)
        ? sql`insert into student_pairs (second, first)
            select distinct split_part(term, ' ', 2), split_part(term, ' ', 1) from ${table} where strpos(term, ' ') > 0
            on conflict do nothing`
        : sql`insert into student_pairs (second, first) select distinct p.second, p.first from ${from} where ${holds} on conflict do nothing`,
    ];
  }
  const users = isBulk(row) ? sql`${r} cross join ` : sql``;
  // Over every student, in the order of the key (as the words).
  const ordered = isBulk(row) ? sql`order by 1, 2` : sql``;
  const texts =
    row === TEXTS
      ? [sql`${r}.lname`, sql`${r}.llocal`]
      : [sql`lower(${r}.name)`, sql`lower(substr(${r}.email, 1, instr(${r}.email, '@') - 1))`];
  // Over every student, only the texts with a space are cut (no email's local part has one).
  const spaced = (text: RawBuilder<unknown>) => (isBulk(row) ? sql`and instr(${text}, ' ') > 0` : sql``);
  return texts.flatMap((text) => [
    sql`insert or ignore into ${table} (term, ${sql.raw(holders.columns)})
      select a.value || ' ' || b.value, ${columns} from ${users}${sqlitePairs(text)} where ${holds} ${spaced(text)} ${ordered}`,
    sql`insert or ignore into student_pairs (second, first) select b.value, a.value from ${users}${sqlitePairs(text)} where ${holds} ${spaced(text)}`,
  ]);
}

/** Every term of a user: its words and its pairs of words. */
export function addTerms(dialect: Dialect, row: Row, holders = STUDENTS): RawBuilder<unknown>[] {
  return [...addWords(dialect, row, holders), ...addPairs(dialect, row, holders)];
}

/** The statement that removes a user's terms (`old` in a trigger). */
export function removeTerms(holders = STUDENTS): RawBuilder<unknown> {
  return sql`delete from ${sql.table(holders.table)} where id = old.id`;
}

/**
 * The triggers on `users` that rewrite a student's terms in the writing transaction with `added`
 * (statements over `new`): on insert, on an update of the keys or of the student state, and on
 * delete. Made again when they exist (a migration that adds terms).
 */
export async function createTermTriggers(
  db: Kysely<any>,
  dialect: Dialect,
  added: RawBuilder<unknown>[],
  holders = STUDENTS,
): Promise<void> {
  const holds = holders.holds;
  const keys = sql.raw(holders.keys.join(', '));
  const statements = sql.join(
    added.map((s) => sql`${s};`),
    sql` `,
  );
  const names = termTriggers(holders);
  if (dialect === 'sqlite') {
    for (const name of names) await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
    const [insert, update, remove] = names.map((name) => sql.id(name));
    await sql`create trigger ${insert} after insert on users when ${holds('new')}
      begin ${statements} end`.execute(db);
    await sql`create trigger ${update} after update of ${keys} on users when ${holds('old')} or ${holds('new')}
      begin ${removeTerms(holders)}; ${statements} end`.execute(db);
    await sql`create trigger ${remove} after delete on users when ${holds('old')}
      begin ${removeTerms(holders)}; end`.execute(db);
    return;
  }
  const [insert, update, remove] = names.map((name) => sql.id(name));
  const run = sql.id(`users_${holders.table}`);
  await sql`create or replace function ${run}() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then ${removeTerms(holders)}; end if;
      if tg_op <> 'DELETE' then ${statements} end if;
      return null;
    end $$`.execute(db);
  for (const name of names) await sql`drop trigger if exists ${sql.id(name)} on users`.execute(db);
  await sql`create trigger ${insert} after insert on users
    for each row when ${holds('new')} execute function ${run}()`.execute(db);
  await sql`create trigger ${update} after update of ${keys} on users
    for each row when (${holds('old')} or ${holds('new')}) execute function ${run}()`.execute(db);
  await sql`create trigger ${remove} after delete on users
    for each row when ${holds('old')} execute function ${run}()`.execute(db);
}

/** The names of the triggers on `users` that keep `holders`' terms (on insert, update and delete). */
export function termTriggers(holders: TermHolders): string[] {
  return ['insert', 'update', 'delete'].map((event) => `users_${holders.table}_${event}`);
}

/**
 * Runs `add`'s statements (`addTerms`, `addPairs`) over every student: on SQLite from `term_texts`,
 * each student's texts lowercased once (see TEXTS), made for them and dropped after.
 */
export async function addForEveryStudent(
  db: Kysely<any>,
  dialect: Dialect,
  add: (dialect: Dialect, row: Row) => RawBuilder<unknown>[],
): Promise<void> {
  if (dialect === 'postgres') {
    for (const statement of add(dialect, 'users')) await statement.execute(db);
    return;
  }
  await sql`drop table if exists temp.term_texts`.execute(db);
  await sql`create temp table term_texts as
    select id, email_verified, name, email, created_at, updated_at, lower(name) as lname, lower(substr(email, 1, instr(email, '@') - 1)) as llocal
    from users where is_student and not is_admin`.execute(db);
  for (const statement of add(dialect, TEXTS)) await statement.execute(db);
  await sql`drop table temp.term_texts`.execute(db);
}

/** PostgreSQL: the staff's key, and their index by user (`removeTerms`), made after the rows. */
const STAFF_INDEXES = [
  'alter table staff_terms add constraint staff_terms_pk primary key (term, id)',
  'create index staff_terms_id on staff_terms (id)',
];

/** PostgreSQL: every staff user's words and pairs (`STAFF`), then the key and index (none before). */
async function fillStaffTerms(db: Kysely<any>): Promise<void> {
  for (const statement of addTerms('postgres', 'users', STAFF)) await statement.execute(db);
  for (const statement of STAFF_INDEXES) await sql.raw(statement).execute(db);
  await sql`analyze staff_terms`.execute(db);
}

/**
 * The staff's terms (`STAFF`, PostgreSQL only; migration 0041): the table, the triggers that keep
 * it, then every staff user's terms. The triggers come first: making them locks `users` against
 * writes until the migration commits, so a staff user written by another instance meanwhile is in
 * the fill or goes through them.
 */
export async function createStaffTerms(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`create table staff_terms (term text not null, id integer not null)`.execute(db);
  await createTermTriggers(db, dialect, addTerms(dialect, 'new', STAFF), STAFF);
  await fillStaffTerms(db);
}

/**
 * The terms of every student made again from `users` (the scale seed, after its load), with the
 * order indexes built after the rows, and the rows students hold by their terms after them
 * (src/db/holder-terms.ts): the tables end as the triggers would have left them.
 */
export async function remakeTerms(db: Kysely<any>, dialect: Dialect): Promise<void> {
  // The rows held by students follow their terms at once, after them, not term by term.
  await dropHolderTriggers(db, dialect);
  for (const order of TERM_ORDERS) await sql.raw(`drop index if exists student_terms_${order}`).execute(db);
  await sql`drop index if exists student_terms_id`.execute(db);
  if (dialect === 'postgres') await sql`alter table student_terms drop constraint if exists student_terms_pk`.execute(db);
  await sql`delete from student_terms`.execute(db);
  await addForEveryStudent(db, dialect, addTerms);
  for (const statement of [...termIndexes(dialect), TERMS_BY_STUDENT]) await sql.raw(statement).execute(db);
  await createHolderTriggers(db, dialect);
  await fillHolderTerms(db, dialect);
  if (dialect === 'postgres') {
    // The staff's, whose triggers the load set aside with the students' (`termTriggers(STAFF)`).
    await sql`alter table staff_terms drop constraint if exists staff_terms_pk`.execute(db);
    await sql`drop index if exists staff_terms_id`.execute(db);
    await sql`delete from staff_terms`.execute(db);
    await fillStaffTerms(db);
  }
}

/**
 * The most words a text may lie in and still be searched through them: their ranges are merged in
 * order on SQLite. PostgreSQL 15 sorts a `union all` of whole ranges (a top-N sort of every
 * student), so the students' list gives it each range's first rows of the page alone (`listPage`'s
 * `windowed`), which it merges: `eva` (in `eva` and `evans`, 33,000 students at a million) 16 ms →
 * 0.4 ms for page 1 of 20. (`ana`, in `ana` and `tanaka`, cost 300 ms with its count through the
 * trigrams, 45 ms through its two ranges sorted; its count is kept per version.)
 */
export const MAX_WORDS = 4;

/** Whether `needle` (lowercased) can lie within one word: not empty, not digits alone, no separator. */
export function mayLieInWords(needle: string): boolean {
  return needle !== '' && !/^[0-9]*$/.test(needle) && ![...WORD_SEPARATORS].some((c) => needle.includes(c));
}

/** Whether `needle` (lowercased, trimmed) lies across two words, in a pair: one space, with text on either side. */
export function mayLieInPairs(needle: string): boolean {
  const space = needle.indexOf(' ');
  return space > 0 && space < needle.length - 1 && needle.indexOf(' ', space + 1) === -1;
}

/** Whether `needle` is looked up in the students' terms (`termOf`) rather than searched as before. */
export function mayLieInTerms(needle: string): boolean {
  return mayLieInWords(needle) || mayLieInPairs(needle);
}

/** The least text after every text that begins with `prefix` (in code point order, SQLite's and PostgreSQL's "C"); null: none. */
function pastPrefix(prefix: string): string | null {
  const points = [...prefix].map((c) => c.codePointAt(0) as number);
  while (points.length > 0) {
    let last = (points.pop() as number) + 1;
    if (last >= 0xd800 && last <= 0xdfff) last = 0xe000;
    if (last <= 0x10ffff) return String.fromCodePoint(...points, last);
  }
  return null;
}

/**
 * How the students that contain `needle` (lowercased) are found through their terms: `none` (no
 * student's word, or pair of words, contains it), `words` (these terms, at most MAX_WORDS, do: their
 * students), or null (the text may lie across more words, in digits or in a domain, or in too many
 * terms: searched as before). A text with one space is looked for among the pairs whose second word
 * begins with its second part.
 */
export async function termOf(db: Kysely<any>, dialect: Dialect, needle: string): Promise<Terms> {
  return (await termsRead(db, dialect, needle)).terms;
}

/** What `termOf` answers. */
export type Terms = { words: string[] } | 'none' | null;

/**
 * `termOf`, with the database's version its terms were read at (`databaseVersion`; null when
 * nothing was read): an answer kept by version and read after its terms is kept by this one, so that
 * a write between the two is seen as one (`GET /search`).
 */
export async function termsRead(db: Kysely<any>, dialect: Dialect, needle: string): Promise<{ terms: Terms; version: string | null }> {
  const inPairs = mayLieInPairs(needle);
  if (!inPairs && !mayLieInWords(needle)) return { terms: null, version: null };
  const contains = (column: RawBuilder<unknown>) =>
    dialect === 'postgres' ? sql`strpos(${column}, ${needle}) > 0` : sql`instr(${column}, ${needle}) > 0`;
  let found: RawBuilder<unknown>;
  if (inPairs) {
    const second = needle.slice(needle.indexOf(' ') + 1);
    const pair = sql`v.first || ' ' || v.second`;
    const past = pastPrefix(second);
    found = sql`select ${pair} as word from student_pairs as v
      where v.second >= ${second} ${past === null ? sql`` : sql`and v.second < ${past}`} and ${contains(pair)} limit ${sql.lit(MAX_WORDS + 1)}`;
  } else {
    found = sql`select word from student_words as v where ${contains(sql.ref('v.word'))} limit ${sql.lit(MAX_WORDS + 1)}`;
  }
  // Prepared on PostgreSQL: its two shapes (words, pairs) are read the same way whatever the text, and
  // planning it cost more than running it (PostgreSQL: 0.41 ms a search with its parse and plan, 0.15
  // prepared), on every search that may lie in the words.
  const rows = await executePrepared(
    db,
    sql<{ word: string | null; domain: number; version: string }>`
    select w.word, (select count(*) from (select 1 from student_domains as d where ${contains(sql.ref('d.domain'))} limit 1) as found) as domain,
      ${databaseVersion(dialect)} as version
    from (select 1 as one) as one left join (${found}) as w on true`.compile(db),
  );
  const version = rows[0] ? String(rows[0].version) : null;
  if (rows.some((row) => Number(row.domain) > 0)) return { terms: null, version };
  const words = rows.flatMap((row) => (row.word === null ? [] : [row.word]));
  if (words.length === 0) return { terms: 'none', version };
  return { terms: words.length <= MAX_WORDS ? { words: words.sort() } : null, version };
}
