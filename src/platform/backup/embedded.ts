import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, readFile, rename, rm, rmdir, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import type { Config } from '../../config.ts';
import { sqliteFile } from '../../db/database.ts';
import { checkSqliteIntegrity, copySqliteOnline } from '../../db/sqlite-backup.ts';
import { parseSecretKey } from '../../secret-key.ts';
import { PRODUCT_VERSION } from '../build.ts';
import { checkKey } from '../storage.ts';
import { ArchiveError, type ArchivePart, readArchive, writeArchive } from './archive.ts';
import { shellQuote } from './postgres.ts';

/**
 * Backup and restore of the embedded deployment (SQLite): one archive (./archive.ts) holding the
 * database, copied online and gzip-compressed (`academy.db.gz`); the stored files as they are, when
 * they are local; and the generated secret key.
 */

const FORMAT = 'academy-backup';
const FORMAT_VERSION = 1;
const DATABASE_MEMBER = 'academy.db.gz';
const KEY_MEMBER = 'secret.key';
const FILES = 'files';

/** What `backup.json`, the archive's first member, says. */
export interface BackupHeader {
  format: typeof FORMAT;
  version: number;
  created_at: string;
  academy_version: string;
  database: 'sqlite';
  storage: 'local' | 's3';
  secret_key: { id: string | null; included: boolean };
}

export type BackupProgress =
  | { phase: 'database'; pages: number; totalPages: number; bytes: number; totalBytes: number }
  | { phase: 'compress'; bytes: number; totalBytes: number }
  | { phase: 'files'; files: number; totalFiles: number; bytes: number; totalBytes: number };

export interface BackupSummary {
  file: string;
  archive_bytes: number;
  /** The database's size, and as it is in the archive (gzip-compressed). */
  database: { bytes: number; compressed_bytes: number; pages: number };
  /** null when the files are in an S3 bucket, which the backup leaves to the bucket's own. */
  files: { count: number; bytes: number; skipped: string[] } | null;
  storage: string;
  secret_key: { id: string | null; included: boolean };
  seconds: number;
}

export interface RestoreSummary {
  file: string;
  backup: { created_at: string; academy_version: string };
  database: { path: string; bytes: number; integrity: 'ok' };
  files: { count: number; bytes: number };
  secret_key: { id: string | null; restored: boolean };
  /** What the operator must do before starting (a key to set), one sentence each. */
  warnings: string[];
  seconds: number;
}

const ignoreMissing = (error: NodeJS.ErrnoException) => {
  if (error.code === 'ENOENT') return null;
  throw error;
};

function isStorageKey(key: string): boolean {
  try {
    checkKey(key);
    return true;
  } catch {
    return false;
  }
}

function databaseFile(config: Config): string {
  const file = sqliteFile(config.databaseUrl);
  if (file === ':memory:') throw new Error('DATABASE_URL names an in-memory database: there is nothing to back up or restore.');
  return path.resolve(file);
}

interface ListedFile {
  key: string;
  file: string;
  size: number;
  mtimeMs: number;
}

/** The stored files under `root`, but unfinished uploads (`.partial/`); names that are no storage key apart. */
async function listStoredFiles(root: string): Promise<{ files: ListedFile[]; skipped: string[] }> {
  const entries = (await readdir(root, { recursive: true, withFileTypes: true }).catch(ignoreMissing)) ?? [];
  const files: ListedFile[] = [];
  const skipped: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const key = path.relative(root, file).split(path.sep).join('/');
    if (key.startsWith('.partial/')) continue;
    if (!isStorageKey(key)) {
      skipped.push(key);
      continue;
    }
    // Gone since the listing (deleted meanwhile): not backed up.
    const found = await stat(file).catch(ignoreMissing);
    if (found) files.push({ key, file, size: found.size, mtimeMs: found.mtimeMs });
  }
  files.sort((a, b) => (a.key < b.key ? -1 : 1));
  return { files, skipped };
}

async function secretKeyOf(config: Config): Promise<{ id: string | null; text: Buffer | null }> {
  if (config.secretKey.source !== 'generated') return { id: config.secretKey.key.id, text: null };
  const text = await readFile(config.secretKey.file).catch(ignoreMissing);
  return { id: text ? (parseSecretKey(text.toString('utf8'))?.id ?? null) : null, text };
}

/**
 * Writes a backup of the embedded deployment to `file` while the server keeps serving: the database
 * first (one consistent snapshot, however long the copy takes), then the stored files, which are
 * never changed once stored, so that every file a row of the snapshot names is there (one deleted
 * during the backup excepted); files stored after the snapshot come along as strays.
 */
export async function backupEmbedded(
  config: Config,
  file: string,
  onProgress: (progress: BackupProgress) => void = () => {},
): Promise<BackupSummary> {
  const started = performance.now();
  const source = databaseFile(config);
  if (!existsSync(source)) throw new Error(`There is no database at ${source} (DATABASE_URL): nothing to back up.`);
  const target = path.resolve(file);
  if (!existsSync(path.dirname(target))) throw new Error(`The directory of ${target} does not exist.`);
  const key = await secretKeyOf(config);
  // The copy is made beside the archive, in a directory private to this user: it holds every record.
  const work = await mkdtemp(path.join(path.dirname(target), '.academy-backup-'));
  try {
    const copy = path.join(work, 'academy.db');
    const { pages, pageSize } = await copySqliteOnline(source, copy, (step) =>
      onProgress({
        phase: 'database',
        pages: step.copiedPages,
        totalPages: step.totalPages,
        bytes: step.copiedPages * step.pageSize,
        totalBytes: step.totalPages * step.pageSize,
      }),
    );
    const copied = await stat(copy);
    // A copy done in one step reports no progress of its own.
    onProgress({ phase: 'database', pages, totalPages: pages, bytes: pages * pageSize, totalBytes: pages * pageSize });
    const compressed = path.join(work, DATABASE_MEMBER);
    let read = 0;
    const metered = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        read += chunk.length;
        onProgress({ phase: 'compress', bytes: read, totalBytes: copied.size });
        callback(null, chunk);
      },
    });
    await pipeline(createReadStream(copy), metered, createGzip(), createWriteStream(compressed, { flags: 'wx', mode: 0o600 }));
    await rm(copy);
    const packed = await stat(compressed);
    const local = config.storage.kind === 'local';
    const listed = local ? await listStoredFiles(path.join(config.dataDir, FILES)) : { files: [], skipped: [] };
    const totalBytes = listed.files.reduce((sum, f) => sum + f.size, 0);
    const backedUp = { count: 0, bytes: 0 };
    const header: BackupHeader = {
      format: FORMAT,
      version: FORMAT_VERSION,
      created_at: new Date().toISOString(),
      academy_version: PRODUCT_VERSION,
      database: 'sqlite',
      storage: config.storage.kind,
      secret_key: { id: key.id, included: key.text !== null },
    };
    async function* parts(): AsyncGenerator<ArchivePart> {
      yield { name: DATABASE_MEMBER, size: packed.size, mtimeMs: copied.mtimeMs, content: () => createReadStream(compressed) };
      const keyText = key.text;
      if (keyText) {
        yield {
          name: KEY_MEMBER,
          size: keyText.length,
          mtimeMs: Date.now(),
          content: async function* () {
            yield keyText;
          },
        };
      }
      for (const stored of listed.files) {
        const handle = await open(stored.file, 'r').catch(ignoreMissing);
        if (!handle) continue;
        yield { name: `${FILES}/${stored.key}`, size: stored.size, mtimeMs: stored.mtimeMs, content: () => handle.createReadStream() };
        backedUp.count += 1;
        backedUp.bytes += stored.size;
        onProgress({ phase: 'files', files: backedUp.count, totalFiles: listed.files.length, bytes: backedUp.bytes, totalBytes });
      }
    }
    const archive = await writeArchive(target, header, parts());
    return {
      file: target,
      archive_bytes: archive.bytes,
      database: { bytes: copied.size, compressed_bytes: packed.size, pages },
      files: local ? { ...backedUp, skipped: listed.skipped } : null,
      storage: config.storage.kind === 's3' ? `s3://${config.storage.bucket}/${config.storage.prefix}` : path.join(config.dataDir, FILES),
      secret_key: header.secret_key,
      seconds: Math.round(performance.now() - started) / 1000,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** What a restore would overwrite: the database (and its journal), the key file, stored files. */
async function occupied(config: Config, database: string): Promise<string[]> {
  const found = [database, `${database}-wal`, `${database}-journal`].filter((file) => existsSync(file));
  if (config.secretKey.source === 'generated' && existsSync(config.secretKey.file)) found.push(config.secretKey.file);
  const files = path.join(config.dataDir, FILES);
  const entries = (await readdir(files).catch(ignoreMissing)) ?? [];
  if (entries.length) found.push(`${files}/ (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'})`);
  return found;
}

function checkHeader(value: unknown): BackupHeader {
  const header = value as Partial<BackupHeader> | null;
  if (header?.format !== FORMAT) throw new ArchiveError('This is not an Academy backup (its backup.json names no academy-backup format).');
  if (header.version !== FORMAT_VERSION) {
    throw new ArchiveError(
      `This backup is in format ${header.version}, which this version (${PRODUCT_VERSION}) does not read: restore it with a newer Academy.`,
    );
  }
  if (header.database !== 'sqlite') throw new ArchiveError(`This backup holds a ${header.database} database, not SQLite.`);
  return header as BackupHeader;
}

/**
 * Restores a backup into an empty data directory (refused if the database, the key file or stored
 * files are there). Everything is written to temporary names first and checked (every member against
 * the archive's manifest, the database with `PRAGMA integrity_check`); only then are the files, the
 * key and, last, the database moved into place. On any failure, nothing of the restore is left.
 */
export async function restoreEmbedded(
  config: Config,
  file: string,
  onProgress: (progress: { bytes: number; totalBytes: number }) => void = () => {},
): Promise<RestoreSummary> {
  const started = performance.now();
  const database = databaseFile(config);
  const present = await occupied(config, database);
  if (present.length) {
    throw new Error(
      `Restore only into an empty data directory; these exist: ${present.join(', ')}. ` +
        'Point ACADEMY_DATA_DIR (and DATABASE_URL) at a new directory, or move them away first.',
    );
  }
  const source = path.resolve(file);
  const archiveSize = (await stat(source).catch(ignoreMissing))?.size;
  if (archiveSize === undefined) throw new Error(`There is no backup at ${source}.`);
  if (path.dirname(database) !== config.dataDir && !existsSync(path.dirname(database))) {
    throw new Error(`The directory of the database (${path.dirname(database)}, from DATABASE_URL) does not exist; create it first.`);
  }
  const createdDataDir = await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const staging = await mkdtemp(path.join(config.dataDir, '.restore-'));
  const stagedDatabase = path.join(path.dirname(database), `.${path.basename(database)}.${randomBytes(6).toString('hex')}.restore`);
  const stagedKey = path.join(staging, KEY_MEMBER);
  const stagedFiles = path.join(staging, FILES);
  const placed: string[] = [];
  try {
    let header: BackupHeader | null = null;
    let restoredDatabase = false;
    const restoredFiles = { count: 0, bytes: 0 };
    await readArchive(
      source,
      {
        header: (value) => {
          header = checkHeader(value);
        },
        member: async (member, content) => {
          let target: string;
          if (member.name === DATABASE_MEMBER && !restoredDatabase) {
            target = stagedDatabase;
            restoredDatabase = true;
          } else if (member.name === KEY_MEMBER) target = stagedKey;
          else if (member.name.startsWith(`${FILES}/`) && isStorageKey(member.name.slice(FILES.length + 1))) {
            if (config.storage.kind !== 'local') {
              throw new Error(
                'This backup holds stored files, and ACADEMY_STORAGE is s3: restore it with local storage, then copy the ' +
                  `data directory's files/ into the bucket (under ACADEMY_S3_PREFIX).`,
              );
            }
            target = path.join(stagedFiles, ...member.name.slice(FILES.length + 1).split('/'));
            await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
            restoredFiles.count += 1;
            restoredFiles.bytes += member.size;
          } else throw new ArchiveError(`The archive holds ${member.name}, which no backup has: nothing was restored.`);
          const write = createWriteStream(target, { flags: 'wx', mode: 0o600, flush: true });
          if (target === stagedDatabase) {
            await pipeline(content, createGunzip(), write).catch((error: NodeJS.ErrnoException) => {
              if (error.code?.startsWith('Z_')) throw new ArchiveError(`The archive's database is damaged (${error.message}).`);
              throw error;
            });
          } else {
            await pipeline(content, write);
            // As stored: the stray-file sweep goes by a file's age.
            await utimes(target, member.mtimeMs / 1000, member.mtimeMs / 1000);
          }
        },
      },
      (bytes) => onProgress({ bytes, totalBytes: archiveSize }),
    );
    const backup = header as BackupHeader | null;
    if (!backup || !restoredDatabase) throw new ArchiveError('The archive holds no database.');
    let findings: string[];
    try {
      findings = checkSqliteIntegrity(stagedDatabase);
    } catch (error) {
      findings = [(error as Error).message];
    }
    if (findings.join() !== 'ok') {
      throw new ArchiveError(`The restored database fails its integrity check: ${findings.slice(0, 5).join('; ')}`);
    }

    const warnings: string[] = [];
    const archivedKey = existsSync(stagedKey) ? parseSecretKey(await readFile(stagedKey, 'utf8')) : null;
    const keyId = archivedKey?.id ?? backup.secret_key.id;
    const configured = config.secretKey;
    const generated = configured.source === 'generated';
    const configuredId = configured.source === 'generated' ? null : configured.key.id;
    if (!generated && keyId && keyId !== configuredId) {
      warnings.push(
        `The backup's secrets are under key ${keyId}, and ${configured.source} holds key ${configuredId}: set it to the backup's key ` +
          `before starting${archivedKey ? ` (the archive's ${KEY_MEMBER}: tar -xf ${shellQuote(file)} ${KEY_MEMBER})` : ''}, or stored secrets will not open.`,
      );
    }
    if (generated && !archivedKey && keyId) {
      warnings.push(
        `The backup does not hold its key (${keyId}, from ACADEMY_SECRET_KEY or its file when it was made): set ACADEMY_SECRET_KEY ` +
          'to that key before starting, or stored secrets will not open.',
      );
    }

    if (existsSync(stagedFiles)) {
      const files = path.join(config.dataDir, FILES);
      // Found empty before the restore began; rmdir refuses one that filled since.
      await rmdir(files).catch(ignoreMissing);
      await rename(stagedFiles, files);
      placed.push(files);
    }
    const restoreKey = configured.source === 'generated' && archivedKey !== null;
    if (restoreKey) {
      await rename(stagedKey, configured.file);
      placed.push(configured.file);
    }
    await rename(stagedDatabase, database);
    placed.push(database);
    return {
      file: source,
      backup: { created_at: backup.created_at, academy_version: backup.academy_version },
      database: { path: database, bytes: (await stat(database)).size, integrity: 'ok' },
      files: restoredFiles,
      secret_key: { id: keyId, restored: restoreKey },
      warnings,
      seconds: Math.round(performance.now() - started) / 1000,
    };
  } catch (error) {
    for (const done of placed) await rm(done, { recursive: true, force: true });
    await rm(stagedDatabase, { force: true });
    if (createdDataDir) await rm(createdDataDir, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
