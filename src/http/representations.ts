import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Page, PageRequest } from '../db/list.ts';
import { entityTag } from './conventions.ts';
import { addLinks, pageOf } from './pagination.ts';

/**
 * How JSON answers are compressed, for the compression plugin (src/assembly/app.ts) and for kept
 * representations alike: brotli or gzip, as the client asks, from this many bytes.
 */
export const COMPRESSION = {
  threshold: 1024,
  encodings: ['br', 'gzip'] as const,
  brotliQuality: 4,
};

type Encoding = (typeof COMPRESSION.encodings)[number];

interface Representation {
  /**
   * The serialized body as UTF-8 bytes, which are what is sent: Node.js would otherwise measure and
   * encode the text again for every response (its Content-Length, then the socket write).
   */
  bytes: Buffer;
  etag: string;
  /** Whether the body is worth compressing (COMPRESSION.threshold). */
  compressible: boolean;
  /** The body compressed, made on the first request that asks for each encoding. */
  encoded: Partial<Record<Encoding, Buffer>>;
  /** A page's links (the pagination part of its `Link` header), kept with its text. */
  link: string | null;
}

/**
 * Serialized answers kept per source value: one per request URL (its query, hence its links), at most
 * this many. A page is written the same way by a client, at most in a few orders of its parameters;
 * a page can hold a thousand rows, so that its URLs, not the pages kept, would bound the memory.
 */
const URLS_PER_SOURCE = 16;
const URLS_PER_PAGE = 4;

const representations = new WeakMap<object, Map<string, Representation>>();

/** Answers serialized (and kept) and answers sent from the kept ones, since the process started. */
export const keptAnswers = { made: 0, sentAgain: 0 };

/**
 * The encoding to send for an `Accept-Encoding` header: the supported one with the highest
 * quality (brotli first on a tie); none when the client asks for none, refuses both (`q=0`), or sends
 * `x-no-compression` (as the compression plugin also honours).
 */
export function chooseEncoding(request: FastifyRequest): Encoding | null {
  const header = request.headers['accept-encoding'];
  if (!header || request.headers['x-no-compression'] !== undefined) return null;
  const quality = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...parameters] = part.split(';');
    const coding = (name ?? '').trim().toLowerCase();
    if (!coding) continue;
    const q = parameters.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
    const value = q === undefined ? 1 : Number(q);
    quality.set(coding, Number.isFinite(value) ? value : 0);
  }
  let best: Encoding | null = null;
  let bestQuality = 0;
  for (const encoding of COMPRESSION.encodings) {
    const q = quality.get(encoding) ?? quality.get('*') ?? 0;
    if (q > bestQuality) {
      best = encoding;
      bestQuality = q;
    }
  }
  return best;
}

function compress(body: Buffer, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: COMPRESSION.brotliQuality } })
    : gzipSync(body);
}

/**
 * Sends `envelope` (a 200 body built from `source`) as its serialized JSON, kept with `source` so
 * that the next request for the same URL sends the same text and ETag without serializing or hashing
 * again, and, to a client that accepts it, the same compressed bytes without compressing again.
 * `source` must be a value a read cache hands out unchanged for as long as it is current
 * (src/platform/changes.ts): when the cache lets it go, its representations go with it. The envelope
 * may differ only by what the URL decides (links, the page) and by `variant`, which names whatever
 * else it depends on (a derived field that moves with the clock); headers it sets (Link) are set on
 * every request by the caller.
 */
export function sendCached(request: FastifyRequest, reply: FastifyReply, source: object, envelope: unknown, variant = ''): FastifyReply {
  const key = keyOf(request, variant);
  return send(request, reply, find(source, key) ?? keep(reply, source, key, envelope, null, URLS_PER_SOURCE));
}

/**
 * Sends one page of a kept list with its `Link` header: `page` as a read cache hands it out (see
 * sendCached), or made from `source`, a value handed out the same way (a kept page's identity,
 * `Page.kept`). Its envelope and links (src/http/pagination.ts, pageOf) are built only when this
 * URL's text is not kept yet; the page's links are kept with the text.
 */
export function sendCachedPage<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  page: Page<T>,
  asked: PageRequest,
  source: object = page,
): FastifyReply {
  const key = keyOf(request, '');
  let representation = find(source, key);
  if (!representation) {
    const { envelope, link } = pageOf(request, asked, page);
    representation = keep(reply, source, key, envelope, link, URLS_PER_PAGE);
  }
  if (representation.link) addLinks(reply, representation.link);
  return send(request, reply, representation);
}

/** What a representation is kept under: the request's URL (its query, hence its links) and the variant. */
function keyOf(request: FastifyRequest, variant: string): string {
  return variant === '' ? request.url : `${request.url}\u001f${variant}`;
}

function find(source: object, key: string): Representation | undefined {
  const found = representations.get(source)?.get(key);
  if (found) keptAnswers.sentAgain++;
  return found;
}

/** Serializes `envelope` once and keeps its text, ETag and links with `source` under `key`. */
function keep(reply: FastifyReply, source: object, key: string, envelope: unknown, link: string | null, urls: number): Representation {
  let forSource = representations.get(source);
  if (!forSource) {
    forSource = new Map();
    representations.set(source, forSource);
  }
  const body = reply.serialize(envelope) as string;
  keptAnswers.made++;
  // Memory of its own: a small Buffer.from() is a slice of a shared 8 KB pool, which a kept one would
  // hold for as long as it is kept.
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(body));
  bytes.write(body);
  const representation = { bytes, etag: entityTag(bytes), compressible: bytes.length >= COMPRESSION.threshold, encoded: {}, link };
  if (forSource.size >= urls) forSource.clear();
  forSource.set(key, representation);
  return representation;
}

/** Sends a kept representation (a handler that resolves after it: see guardHandlers, src/http/conventions.ts). */
function send(request: FastifyRequest, reply: FastifyReply, kept: Representation): FastifyReply {
  // The ETag goes with the text (the same for every encoding, as for answers the compression plugin
  // compresses); the conventions' onSend hook keeps an ETag already set and answers If-None-Match.
  reply.header('etag', kept.etag);
  reply.header('content-type', 'application/json; charset=utf-8');
  const encoding = kept.compressible ? chooseEncoding(request) : null;
  if (!encoding) return reply.send(kept.bytes);
  kept.encoded[encoding] ??= compress(kept.bytes, encoding);
  // With Content-Encoding set, the compression plugin leaves the payload as it is.
  reply.header('content-encoding', encoding);
  reply.header('vary', 'Accept-Encoding');
  return reply.send(kept.encoded[encoding]);
}
