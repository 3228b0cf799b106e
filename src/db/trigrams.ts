import { type Kysely, sql } from 'kysely';
import type { DB } from './schema.ts';

/**
 * How common each trigram is in the searched text of each table, estimated from a random sample of
 * rows. Search uses it to look a long text up by its rarest parts (ADR 0009, "Long text", "Trigrams
 * apart"): a trigram index answers `contains "ines.kaya.54321@learners.example"` by intersecting the
 * lists of all 30 of its trigrams, most of which (`lea`, `exa`, `mpl`) every student's email has; the
 * rarest six characters (`54321@` here), or two trigrams apart (`a.k` and `543`), find the same row
 * from lists of a few entries, and the whole text is then checked on that row. The estimate only
 * chooses what to look up: a stale or missing sample makes a search slower, never different.
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
/** Samples forgotten so far: a sample begun before the last `clearTrigramSamples` is not kept. */
let forgotten = 0;

export function trigramsOf(text: string): string[] {
  const trigrams: string[] = [];
  if (/[\uD800-\uDFFF]/.test(text)) {
    // Characters beyond the Basic Multilingual Plane are two code units: a trigram is three characters.
    const characters = [...text];
    for (let i = 0; i + 3 <= characters.length; i++) trigrams.push(characters.slice(i, i + 3).join(''));
  } else {
    for (let i = 0; i + 3 <= text.length; i++) trigrams.push(text.slice(i, i + 3));
  }
  return trigrams;
}

/**
 * Where a sample is taken from: a table's search columns, or those of the rows of a table whose
 * boolean `flag` is true (an index of part of a table, `SEARCH_SUBSETS`).
 */
export interface SampleSource {
  table: string;
  columns: readonly string[];
  flag?: string;
}

/** SQLite reads a sample this many probes at a time, letting other work run in between. */
const SQLITE_PROBES = 200;

/**
 * About SAMPLE_ROWS rows of `source`, drawn as random ids between its least and greatest and the
 * first row at or after each (an index seek each), which also tell how many rows there are without
 * counting them (the ids that hit a row exactly). `order by random()` read and sorted the whole
 * table: 360 ms of processor time at a million users, in one piece. SQLite, which runs in the
 * process, reads it a few milliseconds at a time.
 */
async function takeSample(db: Kysely<DB>, dialect: 'sqlite' | 'postgres', source: SampleSource): Promise<TrigramSample> {
  const table = sql.table(source.table);
  const flagged = (alias: string) => (source.flag ? sql`${sql.ref(`${alias}.${source.flag}`)} = true and ` : sql``);
  const [range] = (
    await sql<{
      low: number | null;
      high: number | null;
    }>`select min(t.id) as low, max(t.id) as high from ${table} as t where ${flagged('t')}true`.execute(db)
  ).rows;
  const low = Number(range?.low ?? 0);
  const span = Number(range?.high ?? 0) - low + 1;
  if (range?.low === null || range?.low === undefined || span <= 0)
    return { postings: new Map(), rows: 0, tableRows: 0, takenAt: Date.now() };
  // Literals: SQLite took parameters as reals, and probed five times slower.
  const [from, size] = [sql.lit(low), sql.lit(span)];
  const probes = (count: number) =>
    dialect === 'sqlite'
      ? sql`with recursive probe (n, x) as (
          select 1, ${from} + (random() & 9223372036854775807) % ${size}
          union all select n + 1, ${from} + (random() & 9223372036854775807) % ${size} from probe where n < ${sql.lit(count)})
        select x from probe`
      : sql`select ${from}::int8 + floor(random() * ${size})::int8 as x from generate_series(1, ${sql.lit(count)})`;
  const read = async (count: number) =>
    (
      await sql<Record<string, string | number | boolean | null>>`with found as materialized (
      select probe.x, (select s.id from ${table} as s where ${flagged('s')}s.id >= probe.x order by s.id limit 1) as id
      from (${probes(count)}) as probe)
    select t.id as sample_id, found.id = found.x as sample_exact, ${sql.join(source.columns.map((column) => sql.ref(`t.${column}`)))}
    from found join ${table} as t on t.id = found.id`.execute(db)
    ).rows;
  const postings = new Map<string, number[]>();
  const seen = new Set<number>();
  let exact = 0;
  const add = (rows: readonly Record<string, string | number | boolean | null>[]) => {
    for (const row of rows) {
      if (row.sample_exact === true || row.sample_exact === 1) exact++;
      const id = Number(row.sample_id);
      if (seen.has(id)) continue;
      const index = seen.size;
      seen.add(id);
      // Columns apart: a trigram across two of them is in no index.
      const text = source.columns
        .map((column) => row[column] ?? '')
        .join('\u001f')
        .toLowerCase();
      // A row's trigrams are listed once each: a list whose last entry is this row has it already.
      for (const trigram of trigramsOf(text)) {
        const list = postings.get(trigram);
        if (list === undefined) postings.set(trigram, [index]);
        else if (list[list.length - 1] !== index) list.push(index);
      }
    }
  };
  if (dialect === 'postgres') add(await read(SAMPLE_ROWS));
  else {
    for (let taken = 0; taken < SAMPLE_ROWS; taken += SQLITE_PROBES) {
      add(await read(SQLITE_PROBES));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const tableRows = Math.max(seen.size, Math.round((span * exact) / SAMPLE_ROWS));
  return { postings, rows: seen.size, tableRows, takenAt: Date.now() };
}

/**
 * Makes sure each source has a recent sample: takes a missing or old one in the background, and waits
 * for a source's first one when `wait` says so. A failure, or a sample not taken yet, leaves search
 * looking up whole texts.
 */
export async function ensureTrigramSamples(
  db: Kysely<DB>,
  dialect: 'sqlite' | 'postgres',
  sources: Readonly<Record<string, SampleSource>>,
  onError: (error: unknown) => void,
  wait = true,
): Promise<void> {
  const waits: Promise<void>[] = [];
  for (const [name, source] of Object.entries(sources)) {
    const sample = samples.get(name);
    if (sample && Date.now() - sample.takenAt < SAMPLE_MAX_AGE_MS) continue;
    let load = loading.get(name);
    if (!load) {
      const begun = forgotten;
      const taking = takeSample(db, dialect, source)
        .then((taken) => {
          if (begun === forgotten) samples.set(name, taken);
        })
        .catch(onError)
        .finally(() => {
          if (loading.get(name) === taking) loading.delete(name);
        });
      load = taking;
      loading.set(name, load);
    }
    if (!sample && wait) waits.push(load);
  }
  await Promise.all(waits);
}

/**
 * The samples a search takes before it plans a text (GET /search, the students' list): PostgreSQL
 * waits for a source's first sample (a common text through the trigram index costs more than the
 * sample), SQLite, which samples in this process, takes it meanwhile and looks texts up whole until then.
 */
export function sampleForSearch(
  db: Kysely<DB>,
  dialect: 'sqlite' | 'postgres',
  sources: Readonly<Record<string, SampleSource>>,
  onError: (error: unknown) => void,
): Promise<void> {
  return ensureTrigramSamples(db, dialect, sources, onError, dialect === 'postgres');
}

/**
 * About how many of `table`'s rows contain `needle` (lowercased, at least three characters), by its
 * sample: the sampled rows that hold every trigram of it, scaled to the table, and their share of
 * it. Null without a sample. Only to choose how to read the rows (GET /search), never an answer.
 */
export function estimatedRows(table: string, needle: string): { rows: number; share: number } | null {
  const sample = samples.get(table);
  if (!sample || sample.rows === 0) return null;
  const lists = [...new Set(trigramsOf(needle))].map((trigram) => sample.postings.get(trigram) ?? []);
  if (lists.length === 0) return null;
  const share = rowsInAll(lists) / sample.rows;
  return { rows: share * sample.tableRows, share };
}

/**
 * Costs in index entries read, per database. Finding one trigram's list costs `probe` whatever it
 * holds; each row that the lookup finds costs `result`, and `recheck` more when the whole text must
 * then be checked on it. SQLite (an FTS5 trigram list entry: about 80 ns): a phrase of 30 trigrams
 * took 50 µs in an empty FTS5 table, one of 4 took 5 µs; FTS5 checks a phrase's positions in each row
 * it finds (` natar`, four lists of 1,845 entries and 1,845 matches, took 2.0 ms, `a nata`, lists as
 * long and 33 matches, 0.66 ms). PostgreSQL (a GIN list entry: about 40 ns): every row found is read
 * from the table and its text tested, about 1.9 µs (`%yus%`: the index 0.24 ms for 1,763 rows, the
 * whole lookup 3.6 ms; `%yus%ski%`: 0.15 ms for 34 rows, 0.37 ms in all).
 */
const COSTS = {
  sqlite: { probe: 30, result: 10, recheck: 20 },
  postgres: { probe: 30, result: 45, recheck: 5 },
} as const;

/** At most this many trigrams are looked up apart (`TrigramLookup`). */
const MAX_APART = 4;

/**
 * How a text is looked up in a table's trigram index: `parts` of the text, in its order and not
 * overlapping, that every row containing it contains. One part that is the whole text needs no
 * check; otherwise the rows found are checked for the whole text.
 */
export type TrigramLookup = readonly string[];

/**
 * The parts of `needle` (lowercased, at least three characters) to look up in `table`'s trigram
 * index, by an estimate from the sample: each trigram costs a probe and its list (its share of the
 * sampled rows, times the table's rows), and each row the parts match costs more (estimated by the
 * sampled rows that hold all their trigrams), checked again for the whole needle unless the part is
 * the needle. The candidates are
 * - the whole needle;
 * - each run of LOOKUP_CHARACTERS characters;
 * - trigrams apart (`yus` and `ski` for `yusuf kowalski`: two lists instead of twelve, when each name
 *   is common and the pair is not), chosen greedily, each the one that lowers the estimate most.
 * The characters are any (SQLite: FTS5's trigrams span spaces and punctuation: `leo sc` finds Leo
 * Schmidt from four lists) or only letters and digits in a row (PostgreSQL takes a LIKE pattern's
 * trigrams from its words). The cheapest wins. Without a sample, the whole needle.
 */
export function lookupParts(table: string, needle: string, dialect: 'sqlite' | 'postgres'): TrigramLookup {
  const sample = samples.get(table);
  if (!sample || [...needle].length <= LOOKUP_CHARACTERS + 1) return [needle];
  const costs = COSTS[dialect];
  const scale = sample.rows === 0 ? 0 : sample.tableRows / sample.rows;
  const none: number[] = [];
  const listOf = (trigram: string) => sample.postings.get(trigram) ?? none;
  const listCost = (list: readonly number[]) => costs.probe + list.length * scale;
  // A lookup none of the sampled rows matches is estimated at half a sampled row.
  const rowCost = (lists: readonly number[][], whole: boolean) =>
    (costs.result + (whole ? 0 : costs.recheck)) * Math.max(rowsInAll(lists), 0.5) * scale;
  const { whole, runs, trigrams } = candidatesOf(needle, dialect === 'sqlite');
  // Each trigram's list is found once: the runs are made of the same trigrams.
  const apart = trigrams.map(({ at, trigram }) => {
    const list = listOf(trigram);
    return { at, trigram, list, cost: listCost(list) };
  });
  const wholeLists = whole === null ? apart.map((t) => t.list) : whole.map(listOf);
  // The lists of trigrams first to first + count cost before[first + count] - before[first].
  const before = [0];
  for (let i = 0; i < apart.length; i++) before.push((before[i] as number) + (apart[i] as (typeof apart)[number]).cost);

  // Cheapest lists first: a candidate whose lists alone cost more than the best so far is passed
  // over without estimating its matches, which intersects the sampled rows of its lists.
  const contiguous = [
    { part: needle, first: -1, count: 0, entries: wholeLists.reduce((sum, list) => sum + listCost(list), 0) },
    ...runs.map((run) => ({ ...run, entries: (before[run.first + run.count] as number) - (before[run.first] as number) })),
  ].sort((a, b) => a.entries - b.entries);
  let best: { parts: TrigramLookup; cost: number } = { parts: [needle], cost: Number.POSITIVE_INFINITY };
  for (const { part, first, count, entries } of contiguous) {
    if (entries >= best.cost) break;
    const lists = first < 0 ? wholeLists : apart.slice(first, first + count).map((t) => t.list);
    const cost = entries + rowCost(lists, part === needle);
    if (cost < best.cost) best = { parts: [part], cost };
  }

  // Trigrams apart, added one at a time while each lowers the estimate; shortest lists first, so
  // that the first whose list alone costs more than the best addition so far ends the round.
  apart.sort((a, b) => a.cost - b.cost);
  const chosen: typeof apart = [];
  let entries = 0;
  let cost = Number.POSITIVE_INFINITY;
  while (chosen.length < MAX_APART) {
    let next: (typeof apart)[number] | undefined;
    let bound = cost;
    for (const candidate of apart) {
      const listed = entries + candidate.cost;
      if (listed >= bound) break;
      if (chosen.some((c) => Math.abs(c.at - candidate.at) < 3)) continue;
      const estimate = listed + rowCost([...chosen.map((c) => c.list), candidate.list], false);
      if (estimate < bound) {
        next = candidate;
        bound = estimate;
      }
    }
    if (!next) break;
    chosen.push(next);
    entries += next.cost;
    cost = bound;
  }
  if (cost < best.cost) best = { parts: chosen.sort((a, b) => a.at - b.at).map((c) => c.trigram), cost };
  return best.parts;
}

/** How many sampled rows are in every one of `lists` (ascending row indices). */
function rowsInAll(lists: readonly number[][]): number {
  if (lists.length === 1) return (lists[0] as number[]).length;
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

interface Candidates {
  key: string;
  /** Its trigrams that may be looked up, with the character each starts at. */
  trigrams: { at: number; trigram: string }[];
  /** Its runs of LOOKUP_CHARACTERS characters: `count` trigrams from `first` of `trigrams`. */
  runs: { part: string; first: number; count: number }[];
  /** The whole needle's trigrams; null when they are `trigrams`. */
  whole: string[] | null;
}

/**
 * The candidate parts of a needle and their trigrams; a search asks for every table's parts of the
 * same needle in turn, so the last needle's are kept.
 */
let candidates: Candidates | undefined;

function candidatesOf(needle: string, anyCharacters: boolean): Candidates {
  const key = `${anyCharacters ? '*' : 'w'}${needle}`;
  if (candidates?.key === key) return candidates;
  const trigrams: Candidates['trigrams'] = [];
  const runs: Candidates['runs'] = [];
  const characters = [...needle];
  // The runs of characters that may be looked up: where each starts, and how long it is.
  const spans = anyCharacters
    ? [{ start: 0, length: characters.length }]
    : [...needle.matchAll(/[\p{L}\p{N}]{3,}/gu)].map((match) => ({
        start: [...needle.slice(0, match.index)].length,
        length: [...match[0]].length,
      }));
  for (const { start, length } of spans) {
    const first = trigrams.length;
    for (let i = start; i + 3 <= start + length; i++) trigrams.push({ at: i, trigram: characters.slice(i, i + 3).join('') });
    const size = Math.min(LOOKUP_CHARACTERS, length);
    for (let i = 0; i + size <= length; i++) {
      runs.push({ part: characters.slice(start + i, start + i + size).join(''), first: first + i, count: size - 2 });
    }
  }
  candidates = { key, trigrams, runs, whole: anyCharacters ? null : trigramsOf(needle) };
  return candidates;
}

/** Forgets every sample (tests). */
export function clearTrigramSamples(): void {
  samples.clear();
  loading.clear();
  forgotten++;
}
