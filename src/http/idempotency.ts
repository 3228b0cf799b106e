import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type CommitHook, withCommitHook } from '../db/commit-hooks.ts';
import { IdempotencyKeyReusedError } from '../platform/errors.ts';
import type { IdempotencyService } from '../platform/idempotency/service.ts';
import { hookList } from './route-hooks.ts';

/** Response headers that belong to the outcome and are replayed with it. */
const REPLAYED_HEADERS = ['content-type', 'location'];

/**
 * JSON with object keys sorted, so that the same body with another key order is the same request.
 * Written without recursion: a parsed body may nest thousands of levels deep, more than the call
 * stack holds.
 */
function canonical(value: unknown): string {
  const out: string[] = [];
  // Pieces of text to write as they are, and values still to be written, in reverse order.
  const pending: ({ text: string } | { value: unknown })[] = [{ value }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if ('text' in next) {
      out.push(next.text);
      continue;
    }
    const current = next.value;
    if (Array.isArray(current)) {
      pending.push({ text: ']' });
      for (let i = current.length - 1; i >= 0; i--) {
        pending.push({ value: current[i] });
        if (i > 0) pending.push({ text: ',' });
      }
      pending.push({ text: '[' });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      pending.push({ text: '}' });
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i] as [string, unknown];
        pending.push({ value: item }, { text: `${i > 0 ? ',' : ''}${JSON.stringify(key)}:` });
      }
      pending.push({ text: '{' });
    } else {
      out.push(JSON.stringify(current) ?? 'null');
    }
  }
  return out.join('');
}

/** Whether the request's body is a multipart upload, streamed to its handler and not read yet. */
function isStreamed(request: FastifyRequest): boolean {
  return request.body === undefined && typeof request.isMultipart === 'function' && request.isMultipart();
}

/**
 * What makes two requests "the same": method, path with query, and body. A streamed body (an upload)
 * is not read before the key is checked: its media type stands in for it here, and its content is
 * compared by its digest (multipartDigest) once known.
 */
function requestHash(request: FastifyRequest, streamed: boolean): string {
  const hash = createHash('sha256').update(`${request.method} ${request.url}\n`);
  const body = request.body;
  if (Buffer.isBuffer(body) || typeof body === 'string') hash.update(body);
  else if (body !== undefined) hash.update(canonical(body));
  else if (streamed) hash.update(`multipart ${(request.headers['content-type'] ?? '').split(';')[0]}`);
  else hash.update(`${(request.headers['content-type'] ?? '').split(';')[0]} ${request.headers['content-length'] ?? ''}`);
  return hash.digest('hex');
}

/** A multipart upload's file, as its digest takes it. */
export interface DigestedFile {
  name: string;
  filename: string;
  mediaType: string;
  sha256: string;
}

/**
 * The content of a multipart upload, whatever its boundary and the order of its parts: the fields by
 * name and value, and the file by field name, file name, declared media type and the SHA-256 of its bytes.
 */
export function multipartDigest(fields: Record<string, string>, file: DigestedFile | null): string {
  return createHash('sha256').update(canonical({ fields, file })).digest('hex');
}

/** The digest of an upload a handler has read (rememberBodyDigest), for its key's record. */
const bodyDigests = new WeakMap<FastifyRequest, string>();

/**
 * Called by a handler that reads a multipart upload, once read: a repeat with the same
 * Idempotency-Key is then replayed only when its content has this digest, and is a 422 otherwise.
 */
export function rememberBodyDigest(request: FastifyRequest, digest: string): void {
  bodyDigests.set(request, digest);
}

/** Reads a repeated upload to its end (a file only hashed, not kept) and returns its digest. */
async function digestOfUpload(request: FastifyRequest): Promise<string> {
  const fields: Record<string, string> = {};
  let file: DigestedFile | null = null;
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
      continue;
    }
    const hash = createHash('sha256');
    for await (const chunk of part.file) hash.update(chunk as Buffer);
    file ??= { name: part.fieldname, filename: part.filename, mediaType: part.mimetype, sha256: hash.digest('hex') };
  }
  return multipartDigest(fields, file);
}

/**
 * `Idempotency-Key` on POST routes that need a token: the first request reserves the key (after
 * authentication and validation), its response is stored when sent, and repeats replay it with
 * `Idempotent-Replayed: true`. A 5xx releases the key so the client can retry, unless the request had
 * committed changes: then a retry is a 409 `idempotency_key_answer_lost`, as is one after a process
 * that stopped mid-request had committed them.
 */
export function registerIdempotency(app: FastifyInstance, idempotency: IdempotencyService): void {
  /**
   * The requests holding a key: whether the request is still running (`open`; a transaction that
   * commits later, from work it started, no longer counts) and whether its note is committed (later
   * transactions of the request need not write it again).
   */
  const reservations = new WeakMap<FastifyRequest, { id: number; streamed: boolean; open: boolean; committed: boolean }>();

  async function reserve(request: FastifyRequest, reply: FastifyReply) {
    const tokenId = request.actor?.tokenId;
    const header = request.headers['idempotency-key'];
    if (header === undefined || tokenId === null || tokenId === undefined) return;
    const key = idempotency.checkKey(Array.isArray(header) ? header.join(', ') : header);
    const streamed = isStreamed(request);
    const hash = requestHash(request, streamed);
    const outcome = await idempotency.begin({ tokenId, key, requestHash: hash });
    if (outcome.kind === 'proceed') {
      reservations.set(request, { id: outcome.id, streamed, open: true, committed: false });
      return;
    }
    // A repeated upload is the same request only if its content is: read it (nothing is kept) and compare.
    if (streamed && (outcome.bodyDigest === undefined || (await digestOfUpload(request)) !== outcome.bodyDigest)) {
      throw new IdempotencyKeyReusedError();
    }
    const { status, headers, body } = outcome.response;
    reply.code(status).headers(headers).header('idempotent-replayed', 'true');
    return reply.send(body);
  }

  /**
   * Runs the handler so that each transaction it commits notes, in the same commit, that the key's
   * request changed something (src/db/commit-hooks.ts): if the process stops before the response is
   * recorded, a retry then knows not to run the request again.
   */
  function commitsMarked(request: FastifyRequest, _reply: FastifyReply, done: () => void) {
    const reserved = reservations.get(request);
    if (reserved === undefined) return done();
    const hook: CommitHook = {
      before: (connection) =>
        reserved.open && !reserved.committed ? idempotency.markCommitted(connection, reserved.id) : Promise.resolve(),
      after: () => {
        if (reserved.open) reserved.committed = true;
      },
    };
    withCommitHook(hook, done);
  }

  async function record(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const reserved = reservations.get(request);
    if (reserved === undefined) return payload;
    reservations.delete(request);
    reserved.open = false;
    const { id } = reserved;
    // An upload's content is known once its handler has read it; one refused before (nothing kept) is
    // not recorded, so that the client may send it again, mended, under the same key.
    const digest = bodyDigests.get(request);
    try {
      // A streamed response cannot be stored for replay; like a 5xx, it leaves the key free, unless
      // the request committed changes: a retry would make them twice, so it is a 409 instead.
      if (
        reply.statusCode >= 500 ||
        (typeof payload !== 'string' && !Buffer.isBuffer(payload)) ||
        (reserved.streamed && digest === undefined)
      ) {
        await idempotency.release(id);
      } else {
        const headers: Record<string, string> = {};
        for (const name of REPLAYED_HEADERS) {
          const value = reply.getHeader(name);
          if (value !== undefined) headers[name] = String(value);
        }
        await idempotency.complete(id, { status: reply.statusCode, headers, body: payload.toString() }, digest);
      }
    } catch (error) {
      // The outcome stands even if it cannot be recorded; the key frees itself after its lease.
      request.log.warn({ err: error }, 'could not record the idempotency key outcome');
    }
    return payload;
  }

  // Only authenticated POST routes take part; other requests pay nothing for it.
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (route.method !== 'POST' || typeof access !== 'object' || !('scope' in access)) return;
    route.preHandler = [...hookList(route.preHandler), reserve, commitsMarked];
    route.onSend = [...hookList(route.onSend), record];
  });
}
