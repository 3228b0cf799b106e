import type { FastifyReply, FastifyRequest } from 'fastify';
import { parse } from 'range-parser';
import { RangeNotSatisfiableError } from '../platform/errors.ts';

/** Bytes `start` to `end` of a file, both included. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * `Range: bytes=…` of a file of `size` bytes: one range, or null to send it whole; 'unsatisfiable' for a 416.
 * range-parser 2 reads the header (ADR 0020: 1.x refuses a suffix longer than the file); the unit is
 * case-insensitive (RFC 9110 §14.1), a suffix longer than the file selects all of it (§14.1.3).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  // Several ranges: the whole file, as RFC 9110 allows (a download answers with one range at most).
  if (header.includes(',')) return null;
  const parsed = parse(size, header.trim());
  // Another unit, or a range that does not parse or is invalid (`20-10`): ignored (RFC 9110 §14.2).
  if (parsed.type !== 'bytes' || parsed.code & 1) return null;
  // None satisfiable; an empty file has no byte to send for any range.
  return parsed.ranges[0] ?? 'unsatisfiable';
}

/**
 * The range a download of `size` bytes sends (null: the whole file): the request's `Range`, unless its
 * `If-Range` names another version than `etag`. An unsatisfiable range is a 416.
 */
export function requestedRange(request: FastifyRequest, size: number, etag: string): ByteRange | null {
  const ifRange = request.headers['if-range'];
  const range = ifRange && ifRange !== etag ? null : parseRange(request.headers.range, size);
  if (range === 'unsatisfiable') throw new RangeNotSatisfiableError(size);
  return range;
}

/** The status and length of a download of `size` bytes: a 206 with its `Content-Range` for a range. */
export function describeRange(reply: FastifyReply, range: ByteRange | null, size: number): void {
  if (range) {
    reply.code(206);
    reply.header('content-range', `bytes ${range.start}-${range.end}/${size}`);
    reply.header('content-length', String(range.end - range.start + 1));
  } else reply.header('content-length', String(size));
}
