import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SecretBox } from '../../platform/secrets/box.ts';
import type { ImportSummary, RowError } from '../applications/schemas.ts';

/** The largest import file the console takes (CSV or XLSX). */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

/** How long an uploaded file, and then the outcome of its import, is kept. */
export const IMPORT_KEPT_MS = 60 * 60 * 1000;

/** At most this many of a refused import's problems are kept to be shown. */
const KEPT_ERRORS = 1000;

const ID = /^[A-Za-z0-9_-]{24}$/;

export type ImportState = 'uploaded' | 'running' | 'done' | 'failed';

/** An uploaded import file and, once confirmed, how its import goes. Kept as JSON beside the file. */
export interface ImportRecord {
  id: string;
  /** The MAC of the session that uploaded it: only that session finds it. */
  owner: string;
  user_id: number;
  /** The file's name as uploaded (no directories), shown and recorded in the import's events. */
  filename: string;
  size: number;
  uploaded_at: string;
  state: ImportState;
  /** While running: reading the file (checked rows) or writing (rows written). */
  phase: 'reading' | 'writing' | null;
  read: number;
  written: number;
  /** Rows to write, once the file is read. */
  total: number | null;
  summary: ImportSummary | null;
  /** The file's problems, when the import was refused (at most KEPT_ERRORS). */
  errors: RowError[] | null;
  error_count: number;
  /** Why a failed import stopped, for its page. */
  failure: string | null;
  finished_at: string | null;
  /** When the record was last written (the server's time): a running import that stops moving was interrupted. */
  updated_at: string;
}

export class UploadTooLargeError extends Error {}

/**
 * Uploaded import files between their preview and their import: under `<data dir>/console-imports`,
 * private to the service's user, named by a random id (144 bits) and bound to the staff session that
 * uploaded them (the MAC of its cookie), so that no other session, even of the same user, reaches
 * them. A file is removed once imported (or refused), and whatever is left (a preview never
 * confirmed, an outcome read) an hour after it was uploaded or finished, by `sweep`.
 */
export function importStore(deps: { dataDir: string; secrets: Pick<SecretBox, 'mac' | 'verifyMac'> }) {
  const dir = path.join(deps.dataDir, 'console-imports');
  const filePath = (id: string) => path.join(dir, `${id}.upload`);
  const recordPath = (id: string) => path.join(dir, `${id}.json`);
  /** Writes of each record, one after the other. */
  const writes = new Map<string, Promise<void>>();
  /** Imports running in this process: never swept. */
  const running = new Set<string>();

  const ownerOf = (sessionCookie: string) => deps.secrets.mac('console-import', sessionCookie);

  async function write(record: ImportRecord): Promise<void> {
    const target = recordPath(record.id);
    record.updated_at = new Date().toISOString();
    const text = JSON.stringify(record);
    const previous = writes.get(record.id) ?? Promise.resolve();
    const next = previous.then(async () => {
      const temporary = `${target}.${randomBytes(4).toString('hex')}.tmp`;
      await writeFile(temporary, text, { mode: 0o600 });
      await rename(temporary, target);
    });
    const settled = next.catch(() => undefined);
    writes.set(record.id, settled);
    void settled.then(() => {
      if (writes.get(record.id) === settled) writes.delete(record.id);
    });
    return next;
  }

  async function remove(id: string): Promise<void> {
    await writes.get(id);
    await rm(filePath(id), { force: true });
    await rm(recordPath(id), { force: true });
  }

  /** Whether a record is past keeping: an hour after its upload, or after its import finished. */
  const expired = (record: ImportRecord, now: number) =>
    !running.has(record.id) && now - Date.parse(record.finished_at ?? record.uploaded_at) > IMPORT_KEPT_MS;

  return {
    filePath,
    running,

    /**
     * Keeps an uploaded file (at most IMPORT_MAX_BYTES: `stream` ends `truncated` past it, as the
     * multipart parser's limit does) for the session of `sessionCookie`.
     */
    async create(
      upload: { stream: Readable & { truncated?: boolean }; filename: string },
      who: { sessionCookie: string; userId: number; now: Date },
    ): Promise<ImportRecord> {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const id = randomBytes(18).toString('base64url');
      const target = filePath(id);
      try {
        await pipeline(upload.stream, createWriteStream(target, { flags: 'wx', mode: 0o600 }));
        if (upload.stream.truncated) throw new UploadTooLargeError();
        const { size } = await stat(target);
        const record: ImportRecord = {
          id,
          owner: ownerOf(who.sessionCookie),
          user_id: who.userId,
          filename: upload.filename,
          size,
          uploaded_at: who.now.toISOString(),
          state: 'uploaded',
          phase: null,
          read: 0,
          written: 0,
          total: null,
          summary: null,
          errors: null,
          error_count: 0,
          failure: null,
          finished_at: null,
          updated_at: who.now.toISOString(),
        };
        await write(record);
        return record;
      } catch (error) {
        await rm(target, { force: true });
        throw error;
      }
    },

    /** The record `id` of this session, or null (another session's, expired, or none). */
    async find(id: string, sessionCookie: string, now: Date): Promise<ImportRecord | null> {
      if (!ID.test(id)) return null;
      let record: ImportRecord;
      try {
        await writes.get(id);
        record = JSON.parse(await readFile(recordPath(id), 'utf8')) as ImportRecord;
      } catch {
        return null;
      }
      if (!deps.secrets.verifyMac('console-import', sessionCookie, record.owner)) return null;
      if (expired(record, now.getTime())) {
        await remove(id);
        return null;
      }
      return record;
    },

    save: write,

    /** The import's outcome kept, the file gone. */
    async finish(record: ImportRecord, patch: Partial<ImportRecord>): Promise<void> {
      const errors = patch.errors ?? null;
      Object.assign(record, patch, {
        errors: errors ? errors.slice(0, KEPT_ERRORS) : null,
        error_count: errors?.length ?? 0,
        phase: null,
      });
      await write(record);
      await rm(filePath(record.id), { force: true });
    },

    remove,

    /** Removes what is past keeping, and files left without a record (a write cut short). */
    async sweep(now: Date): Promise<void> {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch {
        return;
      }
      const time = now.getTime();
      for (const name of names) {
        const [id = ''] = name.split('.');
        if (running.has(id)) continue;
        const full = path.join(dir, name);
        try {
          if (name.endsWith('.json')) {
            const record = JSON.parse(await readFile(full, 'utf8')) as ImportRecord;
            if (expired(record, time)) await remove(id);
          } else if (time - (await stat(full)).mtimeMs > IMPORT_KEPT_MS) {
            await rm(full, { force: true });
          }
        } catch {
          // Removed meanwhile, or a record being replaced: the next sweep sees it.
        }
      }
    },
  };
}

export type ImportStore = ReturnType<typeof importStore>;
