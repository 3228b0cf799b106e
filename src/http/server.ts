import type { Server } from 'node:http';
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { handleClientError } from './errors.ts';

type Limits = Pick<Config, 'requestTimeoutMs' | 'headersTimeoutMs' | 'keepAliveTimeoutMs'>;

/**
 * Connection limits of every listening server (the API, metrics and worker probes): a client that
 * stalls in its headers or body, or idles on a keep-alive connection, is disconnected instead of
 * holding a socket for ever.
 */
export function serverOptions(config: Limits): FastifyHttpOptions<Server> {
  return {
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      // Node checks the two timeouts above on this interval (30 s by default), so it bounds how late they apply.
      connectionsCheckingInterval: Math.min(1000, Math.ceil(config.headersTimeoutMs / 2)),
      // A request without Host is refused by the API (src/http/conventions.ts) with the contract's
      // error body, rather than by Node with an empty one.
      requireHostHeader: false,
    },
    clientErrorHandler: handleClientError,
    rewriteUrl: (request) => originForm(request.url ?? '/'),
  };
}

/**
 * The origin form (`/path?query`) of a request target. An absolute-form target
 * (`http://host/path`, RFC 9112 §3.2.2) names the same resource; its authority is only the client's
 * word, so it must reach neither the routes nor the links an answer builds from the URL.
 */
export function originForm(target: string): string {
  // 47 is `/`: the form of nearly every request, returned without a look.
  if (target.charCodeAt(0) === 47) return target;
  const scheme = /^https?:\/\//i.exec(target);
  if (!scheme) return target;
  const path = target.indexOf('/', scheme[0].length);
  const query = target.indexOf('?', scheme[0].length);
  if (path !== -1 && (query === -1 || path < query)) return target.slice(path);
  return query === -1 ? '/' : `/${target.slice(query)}`;
}

/**
 * Stops listening and lets requests in flight finish for at most `graceMs`; then the connections
 * still open (stalled clients, slow uploads) are destroyed, so that shutdown always ends.
 */
export async function closeWithin(server: FastifyInstance, graceMs: number): Promise<void> {
  const deadline = setTimeout(() => {
    server.log.warn({ graceMs }, 'shutdown grace period over: closing the connections still open');
    server.server.closeAllConnections();
  }, graceMs);
  try {
    await server.close();
  } finally {
    clearTimeout(deadline);
  }
}
