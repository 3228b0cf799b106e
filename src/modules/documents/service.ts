import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { ListRequest, Page } from '../../db/list.ts';
import type { DB } from '../../db/schema.ts';
import { audit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { ConflictError, NotFoundError, UnsupportedMediaTypeError, ValidationError } from '../../platform/errors.ts';
import type { Outbox } from '../../platform/events/outbox.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import { defineLifecycle } from '../../platform/lifecycle.ts';
import { requirePermission } from '../../platform/permissions.ts';
import { FileTooLargeError, type Storage, type StoredFile } from '../../platform/storage.ts';
import { validateInput } from '../../platform/validation.ts';
import { studentExists } from '../students/repository.ts';
import type { DocumentFilter, DocumentRepository, DocumentRow } from './repository.ts';
import {
  type Document,
  type DocumentPatch,
  type DocumentSort,
  type DocumentStatus,
  UploadFields as UploadFieldsSchema,
  UploadFieldsSoFar,
} from './schemas.ts';
import { SNIFF_BYTES, sniffMediaType } from './sniff.ts';
import { type DocumentType, type DocumentTypeRule, largestLimit } from './types.ts';

/** stored → available (checked by the job); stored/available → archived; anything but deleted → deleted. */
export const documentLifecycle = defineLifecycle<DocumentStatus, 'make_available' | 'archive' | 'delete'>({
  table: 'documents',
  moves: {
    make_available: { from: ['stored'], to: 'available' },
    archive: { from: ['stored', 'available'], to: 'archived' },
    delete: { from: ['stored', 'available', 'archived'], to: 'deleted' },
  },
});

export function presentDocument(row: DocumentRow): Document {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    title: row.title,
    filename: row.filename,
    media_type: row.media_type,
    size: row.size,
    sha256: row.sha256,
    student_id: row.student_id,
    supersedes_id: row.supersedes_id,
    superseded_by_id: row.superseded_by_id,
    failure_reason: row.failure_reason,
    download_path: `/api/v1/documents/${row.id}/download`,
    available_at: row.available_at,
    archived_at: row.archived_at,
    deleted_at: row.deleted_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The form fields of an upload, as received (strings); checked by `upload`. */
export interface UploadFields {
  type?: string | undefined;
  title?: string | undefined;
  student_id?: string | undefined;
  supersedes_id?: string | undefined;
}

/** An upload's file part: its stream, the client's name and claimed media type. */
export interface UploadFile {
  stream: Readable;
  filename: string;
  mediaType: string | undefined;
}

/** A part of an upload as it arrives: a form field, or the file. */
export type UploadPart = { kind: 'field'; name: string; value: string } | { kind: 'file'; name: string; file: UploadFile };

/** The file of an upload once stored, with the media type read from its content and its cleaned name. */
type ReceivedFile = StoredFile & { mediaType: string; filename: string };

/** What an upload has sent so far: its fields by name, and its file once stored. */
interface Received {
  fields: Record<string, string | undefined>;
  file: ReceivedFile | null;
}

/** An upload that passed every check but the database's: its type, file and fields. */
interface CheckedUpload {
  type: DocumentType;
  file: ReceivedFile;
  title: string | null | undefined;
  studentId: number | null | undefined;
  supersedesId: number | null | undefined;
}

/** A file name fit to show and to send back: no path, no control characters, at most 255 characters. */
export function cleanFilename(name: string | undefined): string {
  // Browsers send a quote in a multipart file name as %22 (and CR, LF as %0D, %0A: dropped below).
  const decoded = (name ?? '').replace(/%22/gi, '"').replace(/%0[ad]/gi, '');
  const base = decoded.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim()
    .slice(0, 255);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}

/** A form id as the schema let it through: a row's id, or null for an empty value (none). */
function formId(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  return text === '' || text === 'null' ? null : Number(text);
}

/**
 * The checked fields of an upload, or the fields' errors: checked against UploadFieldsSoFar as they
 * arrive, against UploadFields (the type required) once every part has arrived.
 */
function readFields(fields: UploadFields & Record<string, string | undefined>, final: boolean) {
  const { file: _file, ...form } = fields;
  let errors: Record<string, string[]> = {};
  try {
    validateInput(final ? UploadFieldsSchema : UploadFieldsSoFar, form, 'body');
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    errors = error.details ?? {};
  }
  const valid = (name: string) => errors[name] === undefined;
  const type = valid('type') ? (fields.type as DocumentType | undefined) : undefined;
  // Control characters read as spaces; an empty title is none.
  const cleaned = fields.title?.replace(/\p{Cc}/gu, ' ').trim();
  const title = fields.title === undefined || !valid('title') ? undefined : cleaned === '' ? null : cleaned;
  const studentId = valid('student_id') ? formId(fields.student_id) : undefined;
  const supersedesId = valid('supersedes_id') ? formId(fields.supersedes_id) : undefined;
  return { errors, type, title, studentId, supersedesId };
}

export interface DocumentServiceDeps {
  db: Kysely<DB>;
  dialect: Dialect;
  documents: DocumentRepository;
  storage: Storage;
  outbox: Outbox;
  queue: JobQueue;
  rules: Record<DocumentType, DocumentTypeRule>;
}

export function createDocumentService(deps: DocumentServiceDeps) {
  const { db, documents, storage, outbox, rules } = deps;
  const largest = largestLimit(rules);

  async function find(executor: Kysely<DB>, id: number): Promise<DocumentRow> {
    const row = await documents.find(executor, id);
    if (!row) throw new NotFoundError();
    return row;
  }

  async function checkStudent(trx: Kysely<DB>, studentId: number | null | undefined): Promise<void> {
    if (studentId === undefined || studentId === null) return;
    if (!(await studentExists(trx, studentId))) throw ValidationError.field('student_id', `There is no student with id ${studentId}.`);
  }

  function refuseMediaType(type: DocumentType, mediaType: string): UnsupportedMediaTypeError {
    return new UnsupportedMediaTypeError(
      `A ${type} may be ${rules[type].mediaTypes.join(', ')}; the file's content is ${mediaType} (the type is read from the content, not from the file name or the declared type).`,
    );
  }

  /**
   * The file, read as it arrives: its first SNIFF_BYTES are held back until its media type is known
   * (and refused at once when the document type is known and does not accept it), then everything
   * passes through. Never more than that sample in memory.
   */
  async function* sniffing(file: UploadFile, type: () => DocumentType | undefined, found: { mediaType?: string }) {
    const held: Buffer[] = [];
    let heldBytes = 0;
    let decided = false;
    const decide = async (complete: boolean) => {
      const head = Buffer.concat(held);
      found.mediaType = await sniffMediaType(head, complete, { mediaType: file.mediaType, filename: file.filename });
      const known = type();
      if (known && !rules[known].mediaTypes.includes(found.mediaType)) throw refuseMediaType(known, found.mediaType);
      decided = true;
    };
    for await (const chunk of file.stream as AsyncIterable<Buffer>) {
      if (decided) {
        yield chunk;
        continue;
      }
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes >= SNIFF_BYTES) {
        await decide(false);
        yield* held;
        held.length = 0;
      }
    }
    if (!decided) {
      await decide(true);
      yield* held;
    }
  }

  /** Reads the parts as they arrive: the fields noted, the one file streamed to storage. */
  async function receiveParts(parts: AsyncIterable<UploadPart>, received: Received): Promise<void> {
    for await (const part of parts) {
      if (part.kind === 'field') {
        if (part.name in received.fields) throw ValidationError.field(part.name, `The ${part.name} field was sent twice.`);
        received.fields[part.name] = part.value;
        continue;
      }
      if (part.name !== 'file') throw ValidationError.field(part.name, `Files are sent in the file field, not ${part.name}.`);
      if (received.file) throw ValidationError.field('file', 'Send one file per upload.');
      received.file = await storeFile(part.file, received.fields);
    }
  }

  /**
   * Streams the file to storage, checked against the fields sent before it: its size limit is its
   * type's when the type came first (else the largest of any type), its content sniffed on the way.
   */
  async function storeFile(upload: UploadFile, fields: Received['fields']): Promise<ReceivedFile> {
    const early = readFields(fields, false);
    if (Object.keys(early.errors).length > 0) throw new ValidationError(early.errors);
    const found: { mediaType?: string } = {};
    const limit = early.type ? rules[early.type].maxBytes : largest;
    const file = await storage.put(
      sniffing(upload, () => early.type, found),
      { maxBytes: limit, prefix: 'documents' },
    );
    return { ...file, mediaType: found.mediaType ?? 'application/octet-stream', filename: cleanFilename(upload.filename) };
  }

  /** Once every part has arrived: the fields and the file checked against the document type's rules. */
  function checkUpload(received: Received): CheckedUpload {
    const checked = readFields(received.fields, true);
    if (!received.file) checked.errors.file = ['The file field is required: send the file as a multipart part named file.'];
    if (Object.keys(checked.errors).length > 0) throw new ValidationError(checked.errors);
    const file = received.file as ReceivedFile;
    const type = checked.type as DocumentType;
    if (file.size > rules[type].maxBytes) throw new FileTooLargeError(rules[type].maxBytes);
    if (!rules[type].mediaTypes.includes(file.mediaType)) throw refuseMediaType(type, file.mediaType);
    if (file.size === 0) throw ValidationError.field('file', 'The file is empty.');
    return { type, file, title: checked.title, studentId: checked.studentId, supersedesId: checked.supersedesId };
  }

  /**
   * In one transaction: the document's row, the prior version archived when it is a new version, its
   * events and the job that checks the stored file.
   */
  async function recordUpload(ctx: ServiceContext, upload: CheckedUpload): Promise<DocumentRow> {
    const { type, file, supersedesId } = upload;
    const now = ctx.clock.now().toISOString();
    return db.transaction().execute(async (trx) => {
      await checkStudent(trx, upload.studentId);
      if (supersedesId) await checkPriorVersion(trx, supersedesId, type);
      const inserted = await documents.insert(trx, {
        type,
        status: 'stored',
        title: upload.title ?? null,
        filename: file.filename,
        media_type: file.mediaType,
        size: file.size,
        sha256: file.sha256,
        storage_key: file.key,
        student_id: upload.studentId ?? null,
        supersedes_id: supersedesId ?? null,
        uploaded_by_token_id: ctx.actor.tokenId,
        created_at: now,
        updated_at: now,
      });
      if (supersedesId) await archivePriorVersion(trx, ctx, supersedesId, inserted, now);
      await outbox.emit(trx, 'document.stored', { document_id: inserted, type, size: file.size, sha256: file.sha256 });
      await deps.queue.enqueue(trx, 'documents.process', { documentId: inserted });
      // Read in the transaction: once it has committed, nothing is left to fail, so a 5xx (which
      // frees an Idempotency-Key for a retry) means that nothing was stored.
      const row = await find(trx, inserted);
      await audit.record(trx, ctx, {
        action: 'document.uploaded',
        subject: { type: 'document', id: inserted },
        changes: audit.changes(null, presentDocument(row)),
      });
      return row;
    });
  }

  /** The version a new one supersedes: it exists, has the same type, and is the current version. */
  async function checkPriorVersion(trx: Kysely<DB>, priorId: number, type: DocumentType): Promise<void> {
    // Locked until the commit, so that of concurrent new versions of one prior only the first
    // finds it current; the others wait, then find it superseded (SQLite: writers take turns).
    await documents.lock(trx, deps.dialect, priorId);
    const prior = await documents.find(trx, priorId);
    if (!prior) throw ValidationError.field('supersedes_id', `There is no document with id ${priorId}.`);
    if (prior.type !== type) {
      throw ValidationError.field('supersedes_id', `Document ${prior.id} is a ${prior.type}; a new version must have the same type.`);
    }
    if (prior.status === 'deleted') {
      throw new ConflictError('invalid_transition', `Document ${prior.id} is deleted; a deleted document has no new versions.`);
    }
    if (prior.superseded_by_id !== null) {
      throw new ConflictError(
        'conflict',
        `Document ${prior.id} is already superseded by document ${prior.superseded_by_id}; only the current version ` +
          'takes a new version.',
      );
    }
    if (prior.status === 'archived') {
      throw new ConflictError('conflict', `Document ${prior.id} is archived; only the current version takes a new version.`);
    }
  }

  async function archivePriorVersion(
    trx: Kysely<DB>,
    ctx: ServiceContext,
    priorId: number,
    supersededBy: number,
    now: string,
  ): Promise<void> {
    // Conditional (stored or available only): even unlocked, two new versions cannot both archive it.
    const archived = await documentLifecycle.tryApply(trx, priorId, 'archive', {
      set: { archived_at: now, updated_at: now },
      event: { sink: outbox, type: 'document.archived', payload: { document_id: priorId, superseded_by_id: supersededBy } },
    });
    if (!archived) {
      throw new ConflictError('conflict', `Document ${priorId} was superseded meanwhile; only the current version takes a new version.`);
    }
    await audit.record(trx, ctx, {
      action: 'document.archived',
      subject: { type: 'document', id: priorId },
      changes: { archived_at: [null, now], superseded_by_id: [null, supersededBy] },
    });
  }

  /**
   * Whatever refused the upload, or cut it short, the file it left is removed; unless the row was
   * committed after all (the connection was lost at the commit, or afterwards while reading the row
   * back): then the file is the document's. When that cannot be told now, the file is kept: a stray
   * file (which `academy admin storage sweep` removes later) is better than a document without its file.
   */
  async function removeUnclaimedFile(file: ReceivedFile | null): Promise<void> {
    if (file && !(await documents.namedKeys([file.key]).catch(() => new Set([file.key]))).has(file.key)) {
      await storage.delete(file.key).catch(() => {});
    }
  }

  return {
    rules,

    async list(_ctx: ServiceContext, filter: DocumentFilter, list: ListRequest<DocumentSort>): Promise<Page<Document>> {
      const page = await documents.list(filter, list);
      return { items: page.items.map(presentDocument), total: page.total };
    },

    async get(_ctx: ServiceContext, id: number): Promise<Document> {
      return presentDocument(await find(db, id));
    },

    /**
     * Stores an upload: `parts` yields the form's fields and its one file in the order they arrive.
     * The file streams to storage (its size limit is its type's when the type came first, else the
     * largest of any type, checked again at the end); every refusal, and an aborted upload, leaves
     * neither a row nor a file.
     */
    async upload(ctx: ServiceContext, parts: AsyncIterable<UploadPart>): Promise<Document> {
      requirePermission(ctx, 'documents.manage');
      const received: Received = { fields: {}, file: null };
      try {
        await receiveParts(parts, received);
        const upload = checkUpload(received);
        const stored = await recordUpload(ctx, upload);
        ctx.logger.info({ documentId: stored.id, size: upload.file.size, type: upload.type }, 'document stored');
        return presentDocument(stored);
      } catch (error) {
        await removeUnclaimedFile(received.file);
        throw error;
      }
    },

    /** `expect` is checked on the current document, locked in the update's transaction (If-Match). */
    async update(ctx: ServiceContext, id: number, patch: DocumentPatch, expect?: (current: Document) => void): Promise<Document> {
      requirePermission(ctx, 'documents.manage');
      const now = ctx.clock.now().toISOString();
      await db.transaction().execute(async (trx) => {
        if (expect) await documents.lock(trx, deps.dialect, id);
        const row = await find(trx, id);
        expect?.(presentDocument(row));
        if (row.status === 'deleted') throw new ConflictError('invalid_transition', 'A deleted document cannot be changed.');
        await checkStudent(trx, patch.student_id);
        const values: Record<string, unknown> = { updated_at: now };
        if (patch.title !== undefined) values.title = patch.title === null ? null : patch.title.trim();
        if (patch.student_id !== undefined) values.student_id = patch.student_id;
        await documents.update(trx, id, values);
        await outbox.emit(trx, 'document.updated', { document_id: id, fields: Object.keys(patch).sort() });
        await audit.record(trx, ctx, {
          action: 'document.updated',
          subject: { type: 'document', id },
          changes: audit.changes(row, values),
        });
      });
      return presentDocument(await find(db, id));
    },

    async archive(ctx: ServiceContext, id: number): Promise<Document> {
      requirePermission(ctx, 'documents.manage');
      const now = ctx.clock.now().toISOString();
      // Read in the transaction, as an upload's answer is: a 5xx after the commit would free the
      // Idempotency-Key, and the retry would be refused (409) although the archive was made.
      const row = await db.transaction().execute(async (trx) => {
        const before = await find(trx, id);
        await documentLifecycle.apply(trx, id, 'archive', {
          set: { archived_at: now, updated_at: now },
          event: { sink: outbox, type: 'document.archived', payload: { document_id: id } },
        });
        const after = await find(trx, id);
        await audit.record(trx, ctx, {
          action: 'document.archived',
          subject: { type: 'document', id },
          changes: audit.changes(before, after),
        });
        return after;
      });
      return presentDocument(row);
    },

    /** Soft and final: the row stays (listed as deleted), the file stays in storage, downloads are 404s. */
    async delete(ctx: ServiceContext, id: number): Promise<Document> {
      requirePermission(ctx, 'documents.manage');
      const now = ctx.clock.now().toISOString();
      // Read in the transaction, as the archive's answer is.
      const row = await db.transaction().execute(async (trx) => {
        const before = await find(trx, id);
        await documentLifecycle.apply(trx, id, 'delete', {
          set: { deleted_at: now, updated_at: now },
          event: { sink: outbox, type: 'document.deleted', payload: { document_id: id } },
        });
        const after = await find(trx, id);
        await audit.record(trx, ctx, {
          action: 'document.deleted',
          subject: { type: 'document', id },
          changes: audit.changes(before, after),
        });
        return after;
      });
      return presentDocument(row);
    },

    /** The document and its file (a byte range of it when asked), for download; a deleted one is a 404. */
    async open(ctx: ServiceContext, id: number, range?: { start: number; end: number }) {
      const row = await find(db, id);
      if (row.status === 'deleted') throw new NotFoundError();
      const file = await storage.get(row.storage_key, range);
      await db.transaction().execute((trx) =>
        outbox.emit(trx, 'document.downloaded', {
          document_id: id,
          token_id: ctx.actor.tokenId,
          range: range ? `${range.start}-${range.end}` : null,
        }),
      );
      return { document: row, stream: file.stream };
    },

    /** The job after an upload: reads the stored file back, and makes it available when size and SHA-256 match. */
    async process(ctx: ServiceContext, id: number): Promise<'available' | 'mismatch' | 'skipped'> {
      const row = await documents.find(db, id);
      if (row?.status !== 'stored') return 'skipped';
      const { stream } = await storage.get(row.storage_key);
      const hash = createHash('sha256');
      let size = 0;
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        hash.update(chunk);
        size += chunk.length;
      }
      const sha256 = hash.digest('hex');
      const now = ctx.clock.now().toISOString();
      if (sha256 !== row.sha256 || size !== row.size) {
        const reason = `The stored file does not match what was received (size ${size} of ${row.size}, SHA-256 ${sha256.slice(0, 12)}…).`;
        await db.transaction().execute(async (trx) => {
          await documents.noteFailure(trx, id, reason, now);
          await audit.record(trx, ctx, {
            action: 'document.check_failed',
            subject: { type: 'document', id },
            changes: { failure_reason: [row.failure_reason, reason] },
          });
        });
        ctx.logger.error({ documentId: id }, reason);
        return 'mismatch';
      }
      await db.transaction().execute(async (trx) => {
        const moved = await documentLifecycle.tryApply(trx, id, 'make_available', {
          set: { available_at: now, updated_at: now, failure_reason: null },
          event: { sink: outbox, type: 'document.available', payload: { document_id: id } },
        });
        if (moved) {
          await audit.record(trx, ctx, {
            action: 'document.made_available',
            subject: { type: 'document', id },
            changes: audit.changes(
              { status: 'stored', available_at: null, failure_reason: row.failure_reason },
              { status: 'available', available_at: now, failure_reason: null },
            ),
          });
        }
      });
      return 'available';
    },

    /**
     * In the transaction that gives up the check's job for good (storage or the database failing at
     * every attempt): the document stays `stored`, and its `failure_reason` says why.
     */
    async checkAbandoned(trx: Kysely<DB>, ctx: ServiceContext, id: number, error: string): Promise<void> {
      const reason = `The stored file could not be checked: ${error}`.slice(0, 500);
      await documents.noteFailure(trx, id, reason, ctx.clock.now().toISOString());
      await audit.record(trx, ctx, {
        action: 'document.check_failed',
        subject: { type: 'document', id },
        changes: { failure_reason: [null, reason] },
      });
    },

    async storageUsage() {
      const rows = await documents.usage();
      return {
        documents: rows.map((r) => ({ type: r.type, status: r.status, files: Number(r.files), bytes: Number(r.bytes ?? 0) })),
        storage: await storage.usage(),
      };
    },
  };
}

export type DocumentService = ReturnType<typeof createDocumentService>;
