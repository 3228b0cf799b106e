import net from 'node:net';
import { after } from 'node:test';

/**
 * Chooses connections by what their client has sent so far (the first few kilobytes, as latin1 text),
 * e.g. `(sent) => sent.includes('LISTEN academy_changes')` for a change listener.
 */
export type ConnectionFilter = (sent: string) => boolean;

/**
 * A loopback TCP proxy (to PostgreSQL) that a test can break the ways a network breaks:
 * - `stall()`: bytes stop flowing in both directions while every socket stays open (a hung server, a
 *   stuck middlebox); connections opened meanwhile stall too;
 * - `cut()`: connections are dropped (with `reset`, by a TCP reset, as a failing network or host does);
 *   with `refuse`, new ones are refused until `resume()`.
 * Both take a filter to hit only some connections.
 */
export interface TcpProxy {
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's. */
  url(url: string): string;
  /** Stops forwarding on the connections that match `filter` (all by default), now and as they send. */
  stall(filter?: ConnectionFilter): void;
  cut(options?: { refuse?: boolean; reset?: boolean; filter?: ConnectionFilter }): Promise<void>;
  /** Forwards again (what was held back first), and accepts connections again after a refusing cut. */
  resume(): Promise<void>;
  /** Connections open now. */
  readonly connections: number;
  /** What stalled clients have sent since (held back from the server, as latin1 text): the statements waiting. */
  waiting(): string;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  sent: string;
  stalled: boolean;
  /** Chunks read before the stall took hold, written in order on resume. */
  held: [net.Socket, Buffer][];
}

const SNIFF_BYTES = 4096;

/** Starts a proxy to `target`; it is closed when the test file ends. */
export async function createTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let stallIf: ConnectionFilter | null = null;
  let server: net.Server | null = null;
  let port = 0;

  // What the client sends meanwhile is read and held (nothing reaches the server), so that a test can
  // tell a statement is waiting; the server's side is not read at all.
  function stallPair(pair: Pair): void {
    pair.stalled = true;
    pair.upstream.pause();
  }

  function forward(pair: Pair, from: net.Socket, to: net.Socket): void {
    from.on('data', (chunk: Buffer) => {
      if (from === pair.client && pair.sent.length < SNIFF_BYTES) pair.sent += chunk.toString('latin1');
      if (!pair.stalled && stallIf?.(pair.sent)) stallPair(pair);
      if (pair.stalled) {
        pair.held.push([to, chunk]);
        return;
      }
      if (!to.write(chunk)) from.pause();
    });
    to.on('drain', () => {
      if (!pair.stalled) from.resume();
    });
    from.on('end', () => to.end());
  }

  function accept(client: net.Socket): void {
    const pair: Pair = { client, upstream: net.connect(target), sent: '', stalled: false, held: [] };
    pairs.add(pair);
    for (const socket of [pair.client, pair.upstream]) {
      socket.on('error', () => {});
      socket.on('close', () => {
        pairs.delete(pair);
        pair.client.destroy();
        pair.upstream.destroy();
      });
    }
    forward(pair, pair.client, pair.upstream);
    forward(pair, pair.upstream, pair.client);
    if (stallIf?.('')) stallPair(pair);
  }

  function listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      const next = net.createServer(accept);
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        server = next;
        port = (next.address() as net.AddressInfo).port;
        resolve();
      });
    });
  }

  function stopListening(): Promise<void> {
    const current = server;
    server = null;
    return new Promise((resolve) => (current ? current.close(() => resolve()) : resolve()));
  }

  function drop(filter: ConnectionFilter = () => true, reset = false): void {
    for (const pair of pairs) {
      if (!filter(pair.sent)) continue;
      if (reset) pair.client.resetAndDestroy();
      else pair.client.destroy();
      pair.upstream.destroy();
      pairs.delete(pair);
    }
  }

  await listen();
  const proxy: TcpProxy = {
    get port() {
      return port;
    },
    url(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    stall(filter = () => true) {
      stallIf = filter;
      for (const pair of pairs) if (filter(pair.sent)) stallPair(pair);
    },
    async cut(options = {}) {
      // Once closed, the listening socket refuses; connections kept by the filter stay open.
      const closing = options.refuse ? stopListening() : Promise.resolve();
      drop(options.filter, options.reset);
      if (!options.filter) await closing;
    },
    async resume() {
      stallIf = null;
      for (const pair of pairs) {
        if (!pair.stalled) continue;
        pair.stalled = false;
        for (const [to, chunk] of pair.held.splice(0)) to.write(chunk);
        pair.client.resume();
        pair.upstream.resume();
      }
      if (!server) await listen();
    },
    get connections() {
      return pairs.size;
    },
    waiting() {
      let text = '';
      for (const pair of pairs) for (const [to, chunk] of pair.held) if (to === pair.upstream) text += chunk.toString('latin1');
      return text;
    },
    async close() {
      drop();
      await stopListening();
    },
  };
  after(() => proxy.close());
  return proxy;
}
