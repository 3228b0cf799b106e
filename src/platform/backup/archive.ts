import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/*
 * The backup archive (docs/operations.md#backup-restore-and-upgrade): a tar in the POSIX ustar format,
 * with a pax header for a name longer than 100 bytes, so that `tar -xf` opens it too. Members are
 * stored as they are given (the caller compresses what compresses: the database, not documents that
 * are PDFs and images already, which gzip would only slow down). The first member, `backup.json`, says
 * what the archive holds; the last, `manifest.json`, lists every member before it with its size and
 * SHA-256. Reading checks each tar header's own checksum and every member against the manifest: a
 * truncated archive ends before its manifest, an altered one fails a checksum.
 */

export const HEADER_NAME = 'backup.json';
export const MANIFEST_NAME = 'manifest.json';

const BLOCK = 512;
/** The largest size the 11 octal digits of a ustar header hold; beyond it, base-256 (GNU tar, bsdtar). */
const MAX_OCTAL_SIZE = 0o77777777777;
/** `backup.json` and `manifest.json` are read whole: the manifest of a million files is about 150 MB. */
const MAX_JSON_MEMBER = 512 * 1024 * 1024;

/** A member to write: exactly `size` bytes. */
export interface ArchivePart {
  name: string;
  size: number;
  mtimeMs: number;
  content(): AsyncIterable<Buffer>;
}

/** A member as the manifest lists it. */
export interface PartDigest {
  name: string;
  size: number;
  sha256: string;
}

/** The archive is not one, is damaged or is incomplete. */
export class ArchiveError extends Error {}

/** A small member holding `value` as JSON. */
export function jsonPart(name: string, value: unknown): ArchivePart {
  const bytes = Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
  return {
    name,
    size: bytes.length,
    mtimeMs: Date.now(),
    content: async function* () {
      yield bytes;
    },
  };
}

function octal(block: Buffer, offset: number, width: number, value: number): void {
  block.write(`${value.toString(8).padStart(width - 1, '0')}\0`, offset, width, 'ascii');
}

function ustarHeader(name: string, size: number, mtimeMs: number, type: '0' | 'x'): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, 'utf8');
  octal(block, 100, 8, 0o600);
  octal(block, 108, 8, 0);
  octal(block, 116, 8, 0);
  if (size <= MAX_OCTAL_SIZE) octal(block, 124, 12, size);
  else {
    block[124] = 0x80;
    block.writeBigUInt64BE(BigInt(size), 128);
  }
  octal(block, 136, 12, Math.floor(mtimeMs / 1000));
  block.write(type, 156, 1, 'ascii');
  block.write('ustar\x0000', 257, 8, 'ascii');
  block.write(' '.repeat(8), 148, 8, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return block;
}

/** A pax record, `<length> <key>=<value>\n`, whose length counts its own digits. */
function paxRecord(key: string, value: string): Buffer {
  const rest = Buffer.byteLength(` ${key}=${value}\n`);
  let length = rest + String(rest).length;
  if (String(length).length !== String(rest).length) length = rest + String(length).length;
  return Buffer.from(`${length} ${key}=${value}\n`);
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

async function* member(part: ArchivePart, digests: PartDigest[] | null): AsyncGenerator<Buffer> {
  if (Buffer.byteLength(part.name) > 100) {
    const record = paxRecord('path', part.name);
    yield ustarHeader('PaxHeader', record.length, part.mtimeMs, 'x');
    yield Buffer.concat([record, padding(record.length)]);
  }
  yield ustarHeader(part.name.slice(0, 100), part.size, part.mtimeMs, '0');
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of part.content()) {
    size += chunk.length;
    if (size > part.size) break;
    hash.update(chunk);
    yield chunk;
  }
  // A stored file is never rewritten in place; one that changed anyway would make a torn member.
  if (size !== part.size) throw new Error(`${part.name} changed while it was being backed up (${part.size} bytes expected)`);
  yield padding(size);
  digests?.push({ name: part.name, size, sha256: hash.digest('hex') });
}

/**
 * Writes `header`, then `parts`, then the manifest to `file`: first to `file.partial` (mode 0600,
 * refused if it exists: another backup to that file may be running), synced, then renamed over
 * `file`. Returns the archive's size and the manifest.
 */
export async function writeArchive(
  file: string,
  header: unknown,
  parts: AsyncIterable<ArchivePart>,
): Promise<{ bytes: number; parts: PartDigest[] }> {
  const partial = `${file}.partial`;
  const handle = await open(partial, 'wx', 0o600).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EEXIST') {
      throw new Error(`${partial} exists: another backup to ${file} is running, or one was interrupted (then remove it).`);
    }
    throw error;
  });
  const digests: PartDigest[] = [];
  async function* blocks(): AsyncGenerator<Buffer> {
    yield* member(jsonPart(HEADER_NAME, header), digests);
    for await (const part of parts) yield* member(part, digests);
    yield* member(jsonPart(MANIFEST_NAME, { parts: digests }), null);
    yield Buffer.alloc(BLOCK * 2);
  }
  let bytes = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  try {
    await pipeline(Readable.from(blocks()), counted, handle.createWriteStream({ flush: true }));
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    await handle.close().catch(() => {});
  }
  return { bytes, parts: digests };
}

/** Reads exact byte counts from a stream of chunks. */
class ByteReader {
  readonly #chunks: AsyncIterator<Buffer>;
  #pending: Buffer = Buffer.alloc(0);

  constructor(source: AsyncIterable<Buffer>) {
    this.#chunks = source[Symbol.asyncIterator]();
  }

  /** At most `max` bytes, at least one; null at the end. */
  async some(max: number): Promise<Buffer | null> {
    while (this.#pending.length === 0) {
      const next = await this.#chunks.next();
      if (next.done) return null;
      this.#pending = next.value;
    }
    const chunk = this.#pending.subarray(0, max);
    this.#pending = this.#pending.subarray(chunk.length);
    return chunk;
  }

  /** Exactly `n` bytes, as they come; the end of the stream before them is a truncated archive. */
  async *take(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      const chunk = await this.some(left);
      if (!chunk) throw new ArchiveError('The archive is truncated: it ends in the middle of a member.');
      left -= chunk.length;
      yield chunk;
    }
  }

  async all(n: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.take(n)) chunks.push(chunk);
    return Buffer.concat(chunks);
  }
}

interface TarHeader {
  name: string;
  size: number;
  mtimeMs: number;
  type: string;
}

function parseHeader(block: Buffer, first: boolean): TarHeader {
  const text = (offset: number, width: number) => block.toString('utf8', offset, offset + width).replace(/\0.*$/s, '');
  const number = (offset: number, width: number) => {
    if ((block[offset] ?? 0) & 0x80) return Number(block.readBigUInt64BE(offset + width - 8));
    const digits = text(offset, width).trim();
    if (!/^[0-7]+$/.test(digits)) throw new ArchiveError('The archive is damaged: a member header is unreadable.');
    return Number.parseInt(digits, 8);
  };
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (block[i] as number);
  if (block.toString('ascii', 257, 262) !== 'ustar') {
    throw new ArchiveError(
      first
        ? 'The file is not a backup archive: it does not begin with a tar header.'
        : 'The archive is damaged: a member header is unreadable.',
    );
  }
  if (number(148, 8) !== sum) throw new ArchiveError('The archive is damaged: a member header fails its checksum.');
  const prefix = text(345, 155);
  const name = text(0, 100);
  return { name: prefix ? `${prefix}/${name}` : name, size: number(124, 12), mtimeMs: number(136, 12) * 1000, type: text(156, 1) || '0' };
}

function parsePax(data: Buffer): Record<string, string> {
  const records: Record<string, string> = {};
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const length = space < 0 ? 0 : Number(data.toString('ascii', at, space));
    if (!Number.isInteger(length) || length <= 0) throw new ArchiveError('The archive is damaged: a pax header is unreadable.');
    const record = data.toString('utf8', space + 1, at + length - 1);
    const equals = record.indexOf('=');
    records[record.slice(0, equals)] = record.slice(equals + 1);
    at += length;
  }
  return records;
}

export interface ArchiveMember {
  name: string;
  size: number;
  mtimeMs: number;
}

export interface ArchiveReader {
  /** The first member, `backup.json`, parsed; throw to stop before anything else is read. */
  header(value: unknown): void;
  /** Every member between the header and the manifest; `content` must be read to its end. */
  member(member: ArchiveMember, content: AsyncIterable<Buffer>): Promise<void>;
}

/**
 * Reads an archive made by writeArchive, handing each member to `reader` as it streams past, and
 * checks it whole: it resolves only when every member matched the manifest, else rejects with an
 * ArchiveError (what `reader` wrote meanwhile is the caller's to discard). `onRead` gets the bytes of
 * `file` read so far.
 */
export async function readArchive(file: string, reader: ArchiveReader, onRead: (bytes: number) => void = () => {}): Promise<PartDigest[]> {
  let read = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      read += chunk.length;
      onRead(read);
      callback(null, chunk);
    },
  });
  return await pipeline(createReadStream(file), counted, (source: AsyncIterable<Buffer>) => readMembers(source, reader));
}

async function readMembers(source: AsyncIterable<Buffer>, reader: ArchiveReader): Promise<PartDigest[]> {
  const bytes = new ByteReader(source);
  const seen: PartDigest[] = [];
  let manifest: PartDigest[] | null = null;
  let pax: Record<string, string> = {};
  for (;;) {
    const block = await bytes.all(BLOCK).catch((error) => {
      if (!(error instanceof ArchiveError)) throw error;
      throw new ArchiveError(
        seen.length === 0
          ? 'The file is not a backup archive: it is shorter than a tar header.'
          : 'The archive is truncated: it ends before its manifest.',
      );
    });
    if (block.every((byte) => byte === 0)) break;
    const header = parseHeader(block, seen.length === 0);
    if (manifest) throw new ArchiveError('The archive is damaged: it has members after its manifest.');
    if (header.type === 'x') {
      pax = parsePax(await bytes.all(header.size));
      await bytes.all(padding(header.size).length);
      continue;
    }
    if (header.type !== '0') throw new ArchiveError(`The archive holds a member of a kind a backup never has (tar type "${header.type}").`);
    const name = pax.path ?? header.name;
    pax = {};
    const hash = createHash('sha256');
    if (seen.length === 0 || name === MANIFEST_NAME) {
      if (seen.length === 0 && name !== HEADER_NAME) {
        throw new ArchiveError(`This is not an Academy backup: its first member is ${name}, not ${HEADER_NAME}.`);
      }
      if (header.size > MAX_JSON_MEMBER) throw new ArchiveError(`The archive is damaged: ${name} is ${header.size} bytes long.`);
      const data = await bytes.all(header.size);
      let value: unknown;
      try {
        value = JSON.parse(data.toString('utf8'));
      } catch {
        throw new ArchiveError(`The archive is damaged: ${name} is not JSON.`);
      }
      if (name === MANIFEST_NAME) {
        const parts = (value as { parts?: unknown } | null)?.parts;
        if (!Array.isArray(parts)) throw new ArchiveError(`The archive is damaged: ${name} lists no members.`);
        manifest = parts as PartDigest[];
      } else reader.header(value);
      hash.update(data);
    } else {
      const content = bytes.take(header.size);
      await reader.member(
        { name, size: header.size, mtimeMs: header.mtimeMs },
        (async function* () {
          for await (const chunk of content) {
            hash.update(chunk);
            yield chunk;
          }
        })(),
      );
      // Whatever the reader left unread still counts for the checksum.
      for await (const chunk of content) hash.update(chunk);
    }
    await bytes.all(padding(header.size).length);
    if (name !== MANIFEST_NAME) seen.push({ name, size: header.size, sha256: hash.digest('hex') });
  }
  if (!manifest) throw new ArchiveError('The archive is truncated: it ends before its manifest.');
  for (let chunk = await bytes.some(BLOCK); chunk; chunk = await bytes.some(BLOCK)) {
    if (!chunk.every((byte) => byte === 0)) throw new ArchiveError('The archive is damaged: it has data after its end.');
  }
  const listed = manifest;
  if (listed.length !== seen.length) {
    throw new ArchiveError(`The archive is damaged: its manifest lists ${listed.length} members, and it holds ${seen.length}.`);
  }
  seen.forEach((part, i) => {
    const expected = listed[i];
    if (expected?.name !== part.name || expected.size !== part.size || expected.sha256 !== part.sha256) {
      throw new ArchiveError(`The archive is damaged: ${part.name} does not match its checksum in the manifest.`);
    }
  });
  return seen;
}
