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
  };
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
