import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Storage } from './storage.ts';

/**
 * An area of the storage (a key's first segment, `put`'s prefix) and the rows that name its files:
 * a module that keeps files says so in its manifest (`files`).
 */
export interface FileOwner {
  area: string;
  /** Which of `keys` a row of the module still names. */
  referenced(db: Kysely<DB>, keys: readonly string[]): Promise<Set<string>>;
}

/**
 * The youngest a stray file may be: a file is stored before the row that names it commits (an upload,
 * a report), and no request or job takes an hour between the two.
 */
export const STRAY_FILE_MIN_AGE_MS = 60 * 60_000;

/** Keys looked up in one statement. */
const BATCH = 500;

export interface StrayFiles {
  area: string;
  /** Files old enough to be looked at. */
  checked: number;
  /** Those that no row names: removed, or only counted in a dry run. */
  files: number;
  bytes: number;
}

/**
 * Finds the files of each owner's area that no row names and that are older than `olderThanMs`, and
 * removes them unless `dryRun`. They are left by a process that stopped between storing a file and
 * committing its row, or between a row's change and its file's removal (a report retried into a new
 * file, an expired one). A file restored from a backup newer than the database is one too: `dryRun`
 * shows what would go.
 */
export async function sweepStrayFiles(
  deps: { storage: Storage; db: Kysely<DB> },
  owners: readonly FileOwner[],
  options: { olderThanMs: number; now: number; dryRun: boolean },
): Promise<StrayFiles[]> {
  const before = options.now - options.olderThanMs;
  const results: StrayFiles[] = [];
  for (const owner of owners) {
    const result: StrayFiles = { area: owner.area, checked: 0, files: 0, bytes: 0 };
    let batch: { key: string; size: number }[] = [];
    const settle = async () => {
      const named = await owner.referenced(
        deps.db,
        batch.map((file) => file.key),
      );
      for (const file of batch) {
        if (named.has(file.key)) continue;
        if (!options.dryRun && !(await deps.storage.delete(file.key))) continue;
        result.files += 1;
        result.bytes += file.size;
      }
      batch = [];
    };
    for await (const file of deps.storage.list(owner.area)) {
      if (file.modifiedMs > before) continue;
      result.checked += 1;
      batch.push(file);
      if (batch.length >= BATCH) await settle();
    }
    if (batch.length > 0) await settle();
    results.push(result);
  }
  return results;
}
