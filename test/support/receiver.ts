import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (the client's timeout must end the attempt). */
  hang?: boolean;
}

export interface Receiver {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  requests: ReceivedRequest[];
  /** Sets how the next requests are answered (default: 200 "ok"). */
  reply(reply: Reply | ((request: ReceivedRequest) => Reply)): void;
  /** Resolves once `count` requests have arrived in total. */
  received(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** A real HTTP server on a loopback ephemeral port that records what it receives; closed when the file ends. */
export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let answer: (request: ReceivedRequest) => Reply = () => ({ status: 200, body: 'ok' });
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(request);
      for (const waiter of waiters) waiter();
      const reply = answer(request);
      if (reply.hang) return;
      res.writeHead(reply.status, reply.headers ?? {});
      res.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  after(close);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply(reply) {
      answer = typeof reply === 'function' ? reply : () => reply;
    },
    received(count, timeoutMs = 10_000) {
      if (requests.length >= count) return Promise.resolve(requests.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the receiver got ${requests.length} request(s) within ${timeoutMs} ms, expected ${count}`));
        }, timeoutMs);
        function check() {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(requests.slice());
        }
        waiters.add(check);
      });
    },
    close,
  };
}
