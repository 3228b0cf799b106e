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
  const counts = new Map<string, number>();
  for (const row of rows) {
    for (const trigram of new Set(trigramsOf(row.text.toLowerCase()))) counts.set(trigram, (counts.get(trigram) ?? 0) + 1);
  }
  return { counts, rows: rows.length, takenAt: Date.now() };
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
 * The part of `needle` (lowercased, at least three characters) to look up in `table`'s trigram
 * index, by an estimate from the sample: reading a trigram's index entries costs its share of rows,
 * and every row the part finds is checked whole. The candidates are up to LOOKUP_CHARACTERS letters
 * and digits in a row (PostgreSQL takes a LIKE pattern's trigrams from its words), and the whole
 * needle, which needs no check; the cheapest wins. Without a sample, the whole needle.
 */
export function lookupPart(table: string, needle: string): string {
  const sample = samples.get(table);
  const characters = [...needle];
  if (!sample || sample.rows === 0 || characters.length <= LOOKUP_CHARACTERS + 1) return needle;
  const share = (trigram: string) => (sample.counts.get(trigram) ?? 0) / sample.rows;
  let best = { part: needle, cost: trigramsOf(needle).reduce((sum, trigram) => sum + share(trigram), 0) };
  for (const run of needle.match(/[\p{L}\p{N}]{3,}/gu) ?? []) {
    const letters = [...run];
    const length = Math.min(LOOKUP_CHARACTERS, letters.length);
    for (let i = 0; i + length <= letters.length; i++) {
      const part = letters.slice(i, i + length).join('');
      const shares = trigramsOf(part).map(share);
      const cost = shares.reduce((sum, value) => sum + value, 0) + RECHECK_COST * Math.min(...shares);
      if (cost < best.cost) best = { part, cost };
    }
  }
  return best.part;
}

/** Forgets every sample (tests). */
export function clearTrigramSamples(): void {
  samples.clear();
}
