import type { FastifyReply, FastifyRequest } from 'fastify';
import { entityTag } from './conventions.ts';

interface Representation {
  body: string;
  etag: string;
}

/** Serialized answers kept per source value: one per request URL (its query, hence its links), at most this many. */
const URLS_PER_SOURCE = 16;

const representations = new WeakMap<object, Map<string, Representation>>();

/**
 * Sends `envelope` (a 200 body built from `source`) as its serialized JSON, kept with `source` so
 * that the next request for the same URL sends the same text and ETag without serializing or hashing
 * again. `source` must be a value a read cache hands out unchanged for as long as it is current
 * (src/platform/changes.ts): when the cache lets it go, its representations go with it. The envelope
 * may differ only by what the URL decides (links, the page) and by `variant`, which names whatever
 * else it depends on (a derived field that moves with the clock); headers it sets (Link) are set on
 * every request by the caller.
 */
export function sendCached(request: FastifyRequest, reply: FastifyReply, source: object, envelope: unknown, variant = ''): void {
  let forSource = representations.get(source);
  if (!forSource) {
    forSource = new Map();
    representations.set(source, forSource);
  }
  const key = variant === '' ? request.url : `${request.url}\u001f${variant}`;
  let kept = forSource.get(key);
  if (!kept) {
    const body = reply.serialize(envelope) as string;
    kept = { body, etag: entityTag(body) };
    if (forSource.size >= URLS_PER_SOURCE) forSource.clear();
    forSource.set(key, kept);
  }
  // The ETag goes with the text; the conventions' onSend hook keeps an ETag already set (and answers If-None-Match).
  reply.header('etag', kept.etag);
  reply.header('content-type', 'application/json; charset=utf-8');
  reply.send(kept.body);
}
