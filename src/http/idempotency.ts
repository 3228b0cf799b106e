import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IdempotencyService } from '../modules/idempotency/service.ts';
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

/** What makes two requests "the same": method, path with query, and body. */
function requestHash(request: FastifyRequest): string {
  const hash = createHash('sha256').update(`${request.method} ${request.url}\n`);
  const body = request.body;
  if (Buffer.isBuffer(body) || typeof body === 'string') hash.update(body);
  else if (body !== undefined) hash.update(canonical(body));
  else {
    // A streamed body (multipart upload) is not read yet; its media type and size stand in for it.
    hash.update(`${(request.headers['content-type'] ?? '').split(';')[0]} ${request.headers['content-length'] ?? ''}`);
  }
  return hash.digest('hex');
}

/**
 * `Idempotency-Key` on POST routes that need a token: the first request reserves the key (after
 * authentication and validation), its response is stored when sent, and repeats replay it with
 * `Idempotent-Replayed: true`. A 5xx releases the key so the client can retry.
 */
export function registerIdempotency(app: FastifyInstance, idempotency: IdempotencyService): void {
  const reservations = new WeakMap<FastifyRequest, number>();

  async function reserve(request: FastifyRequest, reply: FastifyReply) {
    const tokenId = request.actor?.tokenId;
    const header = request.headers['idempotency-key'];
    if (header === undefined || tokenId === null || tokenId === undefined) return;
    const key = idempotency.checkKey(Array.isArray(header) ? header.join(', ') : header);
    const outcome = await idempotency.begin({ tokenId, key, requestHash: requestHash(request) });
    if (outcome.kind === 'proceed') {
      reservations.set(request, outcome.id);
      return;
    }
    const { status, headers, body } = outcome.response;
    reply.code(status).headers(headers).header('idempotent-replayed', 'true');
    return reply.send(body);
  }

  async function record(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const id = reservations.get(request);
    if (id === undefined) return payload;
    reservations.delete(request);
    try {
      // A streamed response cannot be stored for replay; like a 5xx, it leaves the key free.
      if (reply.statusCode >= 500 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) {
        await idempotency.release(id);
      } else {
        const headers: Record<string, string> = {};
        for (const name of REPLAYED_HEADERS) {
          const value = reply.getHeader(name);
          if (value !== undefined) headers[name] = String(value);
        }
        await idempotency.complete(id, { status: reply.statusCode, headers, body: payload.toString() });
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
    route.preHandler = [...hookList(route.preHandler), reserve];
    route.onSend = [...hookList(route.onSend), record];
  });
}
