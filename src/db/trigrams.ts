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
  /** In how many of the sampled rows each trigram occurs. */
  counts: Map<string, number>;
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
  const text = sql.join(
    columns.map((column) => sql`coalesce(${sql.ref(column)}, '')`),
    sql` || ' ' || `,
  );
  const { rows } = await sql<{
    text: string;
  }>`select ${text} as text from ${sql.table(table)} order by random() limit ${SAMPLE_ROWS}`.execute(db);
  const [size] = (await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows;
  const counts = new Map<string, number>();
  for (const row of rows) {
    for (const trigram of new Set(trigramsOf(row.text.toLowerCase()))) counts.set(trigram, (counts.get(trigram) ?? 0) + 1);
  }
  return { counts, rows: rows.length, tableRows: Number(size?.n ?? rows.length), takenAt: Date.now() };
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

/** Checking a candidate row's whole text costs about this many index entries read. */
const RECHECK_COST = 20;
/**
 * Finding one trigram in the index costs about this many entries read, whatever its list holds: a
 * phrase of 30 trigrams looked up in an empty FTS5 table took 50 µs, one of 4 took 5 µs.
 */
const PROBE_COST = 30;

/**
 * The part of `needle` (lowercased, at least three characters) to look up in `table`'s trigram
 * index, by an estimate from the sample: each trigram costs a probe and its share of the table's
 * rows, and every row the part finds is checked whole. The candidates are the whole needle, which
 * needs no check, and its parts of LOOKUP_CHARACTERS characters: any characters with
 * `anyCharacters` (SQLite's FTS5 trigrams span spaces and punctuation: `leo sc` finds Leo Schmidt
 * from four lists), otherwise letters and digits in a row (PostgreSQL takes a LIKE pattern's
 * trigrams from its words). The cheapest wins. Without a sample, the whole needle.
 */
export function lookupPart(table: string, needle: string, anyCharacters = false): string {
  const sample = samples.get(table);
  if (!sample || [...needle].length <= LOOKUP_CHARACTERS + 1) return needle;
  // Entries of a trigram's list: its share of the sampled rows, times the table's rows.
  const scale = sample.rows === 0 ? 0 : sample.tableRows / sample.rows;
  const entries = (trigram: string) => (sample.counts.get(trigram) ?? 0) * scale;
  const { whole, parts } = candidatesOf(needle, anyCharacters);
  let best = { part: needle, cost: whole.reduce((sum, trigram) => sum + PROBE_COST + entries(trigram), 0) };
  for (const { part, trigrams } of parts) {
    let cost = 0;
    let least = Number.POSITIVE_INFINITY;
    for (const trigram of trigrams) {
      const list = entries(trigram);
      cost += PROBE_COST + list;
      least = Math.min(least, list);
    }
    cost += RECHECK_COST * least;
    if (cost < best.cost) best = { part, cost };
  }
  return best.part;
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
