import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { AppError, MalformedRequestError } from '../platform/errors.ts';
import type { DigestedFile } from './idempotency.ts';

/** A part of a multipart request as a service reads it: a field, or a file as a stream. */
export type MultipartPart =
  | { kind: 'field'; name: string; value: string }
  | { kind: 'file'; name: string; file: { stream: Readable; filename: string; mediaType: string | undefined } };

/** What a multipart request sent, noted as its parts are read: its Idempotency-Key's digest (multipartDigest). */
export interface MultipartSent {
  fields: Record<string, string>;
  file: Omit<DigestedFile, 'sha256'> | null;
  /** What the request's parser and streams raised (isBrokenBody). */
  failures: WeakSet<Error>;
}

/** The parts of a multipart request, in the order they arrive, noted in `sent`. */
async function* partsOf(request: FastifyRequest, sent: MultipartSent): AsyncGenerator<MultipartPart> {
  const noted = (error: unknown) => {
    if (error instanceof Error) sent.failures.add(error);
  };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        sent.fields[part.fieldname] = value;
        yield { kind: 'field', name: part.fieldname, value };
      } else {
        sent.file ??= { name: part.fieldname, filename: part.filename, mediaType: part.mimetype };
        part.file.on('error', noted);
        yield { kind: 'file', name: part.fieldname, file: { stream: part.file, filename: part.filename, mediaType: part.mimetype } };
      }
    }
  } catch (error) {
    noted(error);
    throw error;
  }
}

/**
 * Whether reading a multipart body failed because of the body: the parser (busboy) or the request's
 * stream reported the failure (partsOf notes what they raise), its message is one of the parser's, or
 * the client's connection went before the body's end. A failure of anything else is not the client's,
 * even with the same code: a database connection reset is an `ECONNRESET` too, and is answered as the
 * database being unavailable, also once the whole body has been read. The multipart plugin's own refusals (`FST_…`: its limits) are answered as such
 * (src/http/errors.ts), even after the request's stream was destroyed by the refusal.
 */
export function isBrokenBody(error: unknown, request: FastifyRequest, sent: MultipartSent): boolean {
  if (error instanceof AppError) return false;
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' && code.startsWith('FST_')) return false;
  // A request whose body was read to its end is destroyed too (Node destroys a consumed request):
  // only one destroyed before its end was cut short by the client.
  if (request.raw.aborted || (request.raw.destroyed && !request.raw.complete)) return true;
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (sent.failures.has(current)) return true;
    if (/Unexpected end of (form|multipart data)|Malformed part header|Boundary not found|Multipart: /i.test(current.message)) return true;
  }
  return false;
}

/**
 * Hands the parts of a multipart request to `consume` (a service reading them as they arrive), and
 * returns its result with what was sent. A failure caused by the body, a broken one or one cut short,
 * is a 400 `malformed_request` saying `outcome`; any other failure is answered as itself.
 */
export async function readMultipart<T>(
  request: FastifyRequest,
  consume: (parts: AsyncIterable<MultipartPart>) => Promise<T>,
  outcome: string,
): Promise<{ result: T; sent: MultipartSent }> {
  const sent: MultipartSent = { fields: {}, file: null, failures: new WeakSet() };
  try {
    return { result: await consume(partsOf(request, sent)), sent };
  } catch (failure) {
    if (isBrokenBody(failure, request, sent)) {
      throw new MalformedRequestError(`The multipart body was cut short or could not be parsed; ${outcome}`);
    }
    throw failure;
  }
}
