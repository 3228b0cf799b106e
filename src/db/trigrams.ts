import { type Kysely, sql } from 'kysely';
import type { DB } from './schema.ts';

/**
 * How common each trigram is in the searched text of each table, estimated from a random sample of
 * rows. Search uses it to look a long text up by its rarest part (ADR 0009, "Long text"): a trigram
 * index answers `contains "ines.kaya.54321@learners.example"` by intersecting the lists of all 30 of
 * its trigrams, most of which (`lea`, `exa`, `mpl`) every student's email has; the rarest six
 * characters (`54321@` here, or `a.5432`) find the same row from lists of a few entries, and the whole
 * text is then checked on that row. The estimate only chooses which part to look up: a stale or
 * missing sample makes a search slower, never different.
 */
export interface TrigramSample {
  /** The sampled rows (by their index) that each trigram occurs in, ascending. */
  postings: Map<string, number[]>;
  rows: number;
  /** Rows in the table when the sample was taken. */
  tableRows: number;
  takenAt: number;
}

const SAMPLE_ROWS = 2000;
/** A sample older than this is taken again (in the background; the old one serves meanwhile). */
const SAMPLE_MAX_AGE_MS = 10 * 60_000;
/** The part looked up: this many characters (four trigrams). */
export const LOOKUP_CHARACTERS = 6;

const samples = new Map<string, TrigramSample>();
const loading = new Map<string, Promise<void>>();

export function trigramsOf(text: string): string[] {
  const characters = [...text];
  const trigrams: string[] = [];
  for (let i = 0; i + 3 <= characters.length; i++) trigrams.push(characters.slice(i, i + 3).join(''));
  return trigrams;
}

async function takeSample(db: Kysely<DB>, table: string, columns: readonly string[]): Promise<TrigramSample> {
  const { rows } = await sql<Record<string, string | null>>`select ${sql.join(
    columns.map((column) => sql.ref(column)),
  )} from ${sql.table(table)} order by random() limit ${SAMPLE_ROWS}`.execute(db);
  const [size] = (await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows;
  const postings = new Map<string, number[]>();
  rows.forEach((row, index) => {
    // Columns apart: a trigram across two of them is in no index.
    const text = columns
      .map((column) => row[column] ?? '')
      .join('\u001f')
      .toLowerCase();
    for (const trigram of new Set(trigramsOf(text))) {
      const list = postings.get(trigram);
      if (list) list.push(index);
      else postings.set(trigram, [index]);
    }
  });
  return { postings, rows: rows.length, tableRows: Number(size?.n ?? rows.length), takenAt: Date.now() };
}

/**
 * Makes sure each table has a recent sample: waits for a table's first one, refreshes an old one in
 * the background. A failure leaves search looking up whole texts, as without samples.
 */
export async function ensureTrigramSamples(
  db: Kysely<DB>,
  tables: Readonly<Record<string, readonly string[]>>,
  onError: (error: unknown) => void,
): Promise<void> {
  const waits: Promise<void>[] = [];
  for (const [table, columns] of Object.entries(tables)) {
    const sample = samples.get(table);
    if (sample && Date.now() - sample.takenAt < SAMPLE_MAX_AGE_MS) continue;
    let load = loading.get(table);
    if (!load) {
      load = takeSample(db, table, columns)
        .then((taken) => void samples.set(table, taken))
        .catch(onError)
        .finally(() => loading.delete(table));
      loading.set(table, load);
    }
    if (!sample) waits.push(load);
  }
  await Promise.all(waits);
}

/**
 * Costs in index entries read (an FTS5 trigram list entry: about 80 ns on SQLite). Finding one
 * trigram's list costs PROBE_COST whatever it holds (a phrase of 30 trigrams took 50 µs in an empty
 * FTS5 table, one of 4 took 5 µs); each row that the looked-up text matches costs RESULT_COST (FTS5
 * checks the phrase's positions in it: ` natar`, four lists of 1,845 entries and 1,845 matches, took
 * 2.0 ms, `a nata`, lists as long and 33 matches, 0.66 ms), and RECHECK_COST more when the whole
 * text must then be checked on it.
 */
const PROBE_COST = 30;
const RESULT_COST = 10;
const RECHECK_COST = 20;

/**
 * The part of `needle` (lowercased, at least three characters) to look up in `table`'s trigram
 * index, by an estimate from the sample: each trigram costs a probe and its list (its share of the
 * sampled rows, times the table's rows), and each row the part matches costs more (estimated by the
 * sampled rows that hold all its trigrams), checked again for the whole needle when the part is not
 * the needle. The candidates are the whole needle and its parts of LOOKUP_CHARACTERS characters: any
 * characters with `anyCharacters` (SQLite's FTS5 trigrams span spaces and punctuation: `leo sc`
 * finds Leo Schmidt from four lists), otherwise letters and digits in a row (PostgreSQL takes a LIKE
 * pattern's trigrams from its words). The cheapest wins. Without a sample, the whole needle.
 */
export function lookupPart(table: string, needle: string, anyCharacters = false): string {
  const sample = samples.get(table);
  if (!sample || [...needle].length <= LOOKUP_CHARACTERS + 1) return needle;
  const scale = sample.rows === 0 ? 0 : sample.tableRows / sample.rows;
  const none: number[] = [];
  const { whole, parts } = candidatesOf(needle, anyCharacters);
  // Cheapest lists first: a candidate whose lists alone cost more than the best so far is passed
  // over without estimating its matches, which intersects the sampled rows of its lists.
  const candidates = [{ part: needle, trigrams: whole }, ...parts]
    .map(({ part, trigrams }) => {
      const lists = trigrams.map((trigram) => sample.postings.get(trigram) ?? none);
      let entries = 0;
      for (const list of lists) entries += PROBE_COST + list.length * scale;
      return { part, lists, entries };
    })
    .sort((a, b) => a.entries - b.entries);
  let best = { part: needle, cost: Number.POSITIVE_INFINITY };
  for (const { part, lists, entries } of candidates) {
    if (entries >= best.cost) break;
    // A part none of the sampled rows holds is estimated at half a sampled row.
    const matches = Math.max(rowsInAll(lists), 0.5) * scale;
    const cost = entries + (RESULT_COST + (part === needle ? 0 : RECHECK_COST)) * matches;
    if (cost < best.cost) best = { part, cost };
  }
  return best.part;
}

/** How many sampled rows are in every one of `lists` (ascending row indices). */
function rowsInAll(lists: readonly number[][]): number {
  let shortest: number[] | undefined;
  for (const list of lists) if (!shortest || list.length < shortest.length) shortest = list;
  if (!shortest || shortest.length === 0) return 0;
  let found = 0;
  for (const row of shortest) if (lists.every((list) => list === shortest || holds(list, row))) found++;
  return found;
}

/** `list` (ascending) holds `value`: a binary search, since the lists of common trigrams hold most rows. */
function holds(list: readonly number[], value: number): boolean {
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = list[middle] as number;
    if (at === value) return true;
    if (at < value) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/**
 * The candidate parts of a needle and their trigrams; a search asks for every table's part of the
 * same needle in turn, so the last needle's are kept.
 */
let candidates: { key: string; whole: string[]; parts: { part: string; trigrams: string[] }[] } | undefined;

function candidatesOf(needle: string, anyCharacters: boolean) {
  const key = `${anyCharacters ? '*' : 'w'}${needle}`;
  if (candidates?.key === key) return candidates;
  const parts: { part: string; trigrams: string[] }[] = [];
  for (const run of anyCharacters ? [needle] : (needle.match(/[\p{L}\p{N}]{3,}/gu) ?? [])) {
    const letters = [...run];
    const length = Math.min(LOOKUP_CHARACTERS, letters.length);
    for (let i = 0; i + length <= letters.length; i++) {
      const part = letters.slice(i, i + length).join('');
      parts.push({ part, trigrams: trigramsOf(part) });
    }
  }
  candidates = { key, whole: trigramsOf(needle), parts };
  return candidates;
}

/** Forgets every sample (tests). */
export function clearTrigramSamples(): void {
  samples.clear();
}
