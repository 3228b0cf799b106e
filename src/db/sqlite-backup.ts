import { closeSync, openSync } from 'node:fs';
import { backup, DatabaseSync } from 'node:sqlite';

/** Pages copied per step of an online copy: 4 MiB with SQLite's default 4 KiB pages. */
const PAGES_PER_STEP = 1024;

export interface CopyProgress {
  copiedPages: number;
  totalPages: number;
  pageSize: number;
}

/**
 * Copies the SQLite database `source` into the new file `destination` while other processes go on
 * reading and writing it (SQLite's online backup, in steps on a worker thread). The copy holds one read
 * transaction on the source from start to end: in WAL mode a reader never blocks writers, and every
 * page copied comes from the one snapshot that transaction sees. Without it, SQLite restarts the copy
 * whenever another connection commits, and under steady writes it may never finish. The copy is left in
 * rollback-journal mode, one self-contained file (a server that opens it switches it back to WAL).
 */
export async function copySqliteOnline(
  source: string,
  destination: string,
  onProgress: (progress: CopyProgress) => void = () => {},
): Promise<{ pages: number; pageSize: number }> {
  // Made private before SQLite opens it: it holds the whole database.
  closeSync(openSync(destination, 'wx', 0o600));
  const db = new DatabaseSync(source, { timeout: 5000 });
  let pages: number;
  let pageSize: number;
  try {
    pageSize = Number((db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size);
    db.exec('BEGIN');
    // A deferred transaction takes its snapshot at its first read.
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    pages = await backup(db, destination, {
      rate: PAGES_PER_STEP,
      progress: ({ totalPages, remainingPages }) => onProgress({ copiedPages: totalPages - remainingPages, totalPages, pageSize }),
    });
    db.exec('COMMIT');
  } finally {
    db.close();
  }
  const copy = new DatabaseSync(destination);
  try {
    copy.exec('PRAGMA journal_mode = DELETE');
  } finally {
    copy.close();
  }
  return { pages, pageSize };
}

/** `PRAGMA integrity_check` of a database file: `['ok']` when it is sound, else SQLite's findings. */
export function checkSqliteIntegrity(file: string): string[] {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[]).map((row) => row.integrity_check);
  } finally {
    db.close();
  }
}
