import type { FastifyReply, FastifyRequest } from 'fastify';
import { PreconditionFailedError } from '../platform/errors.ts';
import { entityTag } from './conventions.ts';

/**
 * A check a service runs on the current state of a resource inside the transaction of its update,
 * after locking the row: it throws to leave the resource unchanged. Checking there (not before the
 * transaction) is what keeps two updates made with the same If-Match from both succeeding.
 */
export type Precondition<T> = (current: T) => void;

/**
 * The request's `If-Match` as a precondition, or `undefined` without the header. The current ETag is
 * the one a GET of the resource sends: the strong hash of `{"data": …}` serialized by the route's own
 * 200 schema, which a PATCH shares with the GET. `*` matches any existing resource. Comparison is
 * strong (RFC 9110, 13.1.1): the server only sends strong tags, and a weak one never matches.
 */
export function ifMatch<T>(request: FastifyRequest, reply: FastifyReply): Precondition<T> | undefined {
  const header = request.headers['if-match'];
  if (header === undefined) return undefined;
  const tags = header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  if (tags.includes('*')) return () => {};
  return (current) => {
    const etag = entityTag(reply.serialize({ data: current }) as string);
    if (!tags.includes(etag)) throw new PreconditionFailedError();
  };
}
