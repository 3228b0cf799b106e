import net from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** Parses the first HTTP/1.x response in `text` (one with Content-Length, as the server sends). */
export function parseResponse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) throw new Error(`no complete response in ${JSON.stringify(text)}`);
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine?.split(' ')[1]), headers, body: text.slice(end + 4) };
}

export interface RawConnection {
  socket: net.Socket;
  /** Everything the server has sent so far. */
  received(): string;
  /** Resolves with the milliseconds from connecting until the server closed the connection. */
  closed: Promise<number>;
  /** Resolves once `pattern` appears in what the server sent. */
  waitFor(pattern: RegExp): Promise<void>;
}

/**
 * A raw TCP connection to a server that writes `data` and then, unlike any HTTP client, does
 * whatever the test says: nothing more (a stalled client), or the rest later.
 */
export async function connect(port: number, data: string | Buffer): Promise<RawConnection> {
  const socket = net.connect(port, '127.0.0.1');
  const opened = Date.now();
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let text = '';
  const listeners = new Set<() => void>();
  socket.on('data', (chunk) => {
    text += chunk.toString('latin1');
    for (const listener of listeners) listener();
  });
  // A reset by the server is one way of closing the connection too.
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - opened)));
  socket.write(data);
  return {
    socket,
    received: () => text,
    closed,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(text)) return;
          listeners.delete(check);
          resolve();
        };
        listeners.add(check);
        closed.then(() => {
          listeners.delete(check);
          if (!pattern.test(text)) reject(new Error(`connection closed before ${pattern}; received ${JSON.stringify(text)}`));
        });
        check();
      }),
  };
}

/** Resolves with the value of `promise`, or with `fallback` once `ms` have passed. */
export function within<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<F>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}

/** A loopback port that was free a moment ago (listened on and closed again): nothing answers on it. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
