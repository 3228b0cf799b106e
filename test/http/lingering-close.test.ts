import assert from 'node:assert/strict';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import net, { type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { assertError } from '../support/errors.ts';
import { createTestApp, type TestApp } from '../support/platform.ts';
import { parseResponse, within } from '../support/sockets.ts';
import { type ClientName, uploadInThread } from '../support/upload-clients.ts';

const MB = 1024 * 1024;

interface Server {
  app: TestApp;
  port: number;
  token: string;
  /** The next connection the server closes: how long it was open, and the bytes it read (headers included). */
  nextClose(): Promise<{ ms: number; bytesRead: number }>;
}

/** A listening server (not `inject`): what a client sees of a closed connection only exists on real ones. */
async function listening(env: Record<string, string> = {}): Promise<Server> {
  // employment_letter takes at most 1 MB here: the 8 MB file is a 413 once its first MB has arrived.
  const types = path.join(tmpdir(), `academy-lingering-types-${process.pid}.json`);
  writeFileSync(types, JSON.stringify({ employment_letter: { max_bytes: MB, media_types: ['application/pdf'] } }));
  // 300 uploads a minute with one token are within the limit here.
  const app = await createTestApp({
    env: { ACADEMY_DOCUMENT_TYPES_FILE: types, ACADEMY_RATE_LIMIT_PER_MINUTE: '100000', ACADEMY_TRUST_PROXY: '127.0.0.1', ...env },
  });
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const nextClose = () =>
    new Promise<{ ms: number; bytesRead: number }>((resolve) =>
      app.http.server.once('connection', (socket: Socket) => {
        const opened = Date.now();
        socket.once('close', () => resolve({ ms: Date.now() - opened, bytesRead: socket.bytesRead }));
      }),
    );
  return { app, port: (app.http.server.address() as AddressInfo).port, token: await app.token(['*']), nextClose };
}

/** 50 uploads of an 8 MB file, from a client in a thread of its own, a few at a time. */
const uploads = (server: Server, client: ClientName, token: string, type: string) =>
  uploadInThread({ client, url: `http://127.0.0.1:${server.port}/api/v1/documents`, token, type, fileBytes: 8 * MB, times: 50, lanes: 2 });

describe('lingering close: an upload refused early gets its answer (default limits)', () => {
  let server: Server;
  before(async () => {
    server = await listening();
  });

  for (const client of ['global fetch', 'undici'] as const) {
    test(`${client}: an 8 MB upload of an unknown type is answered 422, 50 times of 50`, async () => {
      assert.deepEqual(await uploads(server, client, server.token, 'no_such_type'), { '422 validation_failed': 50 });
    });

    test(`${client}: an 8 MB file over its type's 1 MB limit is answered 413, 50 times of 50`, async () => {
      assert.deepEqual(await uploads(server, client, server.token, 'employment_letter'), { '413 payload_too_large': 50 });
    });

    test(`${client}: an 8 MB upload with an unknown token is answered 401, 50 times of 50`, async () => {
      assert.deepEqual(await uploads(server, client, 'not-a-token', 'employment_letter'), { '401 unauthenticated': 50 });
    });
  }
});

/** Headers of an upload declaring `length` bytes of body, with an unknown token (a 401 before any body is read). */
const refusedUpload = (length: number) =>
  'POST /api/v1/documents HTTP/1.1\r\nHost: academy.test\r\nAuthorization: Bearer not-a-token\r\n' +
  `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${length}\r\n\r\n--x\r\n`;

/**
 * A raw connection that sends `text` and keeps its own side open after the server's FIN, as a client
 * still sending its body does (Node's net sockets would otherwise end theirs at once).
 */
async function halfOpen(port: number, text: string) {
  const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  await once(socket, 'connect');
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  socket.on('error', () => {});
  socket.write(text);
  return { socket, received: () => received };
}

describe('lingering close: bounded in time and bytes', () => {
  test('a client that stalls in its body after the answer is cut off by the request timeout', async () => {
    const server = await listening({ ACADEMY_REQUEST_TIMEOUT_MS: '600', ACADEMY_HEADERS_TIMEOUT_MS: '300', ACADEMY_LINGER_MS: '30000' });
    const closed = server.nextClose();
    const connection = await halfOpen(server.port, refusedUpload(100 * MB));
    const { ms } = await within(closed, 3000, { ms: Number.NaN });
    connection.socket.destroy();
    // Node checks the request timeout every 300 ms here (half the headers timeout).
    assert.ok(ms >= 550 && ms < 1500, `closed after ${ms} ms`);
    assertError(parseResponse(connection.received()), 401, 'unauthenticated');
  });

  test('a client that stalls in its body after the answer is cut off after ACADEMY_LINGER_MS', async () => {
    const server = await listening({ ACADEMY_LINGER_MS: '300' });
    const closed = server.nextClose();
    const connection = await halfOpen(server.port, refusedUpload(100 * MB));
    const { ms } = await within(closed, 3000, { ms: Number.NaN });
    connection.socket.destroy();
    assert.ok(ms >= 250 && ms < 1500, `closed after ${ms} ms`);
    assertError(parseResponse(connection.received()), 401, 'unauthenticated');
  });

  test('a client that keeps sending after the answer is read from for ACADEMY_LINGER_BYTES more at most', async () => {
    const server = await listening({ ACADEMY_LINGER_BYTES: String(MB), ACADEMY_LINGER_MS: '1000' });
    const closed = server.nextClose();
    const connection = await halfOpen(server.port, refusedUpload(100 * MB));
    // As fast as the server reads, until it stops reading or closes: far more than it may read.
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    let written = 0;
    while (!connection.socket.destroyed && written < 100 * MB) {
      written += chunk.length;
      if (connection.socket.write(chunk)) continue;
      if (
        !(await within(
          once(connection.socket, 'drain').then(() => true),
          500,
          false,
        ))
      )
        break;
    }
    const { ms, bytesRead } = await within(closed, 3000, { ms: Number.NaN, bytesRead: Number.NaN });
    connection.socket.destroy();
    assert.ok(ms < 1500, `closed after ${ms} ms`);
    assertError(parseResponse(connection.received()), 401, 'unauthenticated');
    assert.ok(bytesRead <= MB + 256 * 1024, `the server read ${bytesRead} bytes (the client wrote ${written})`);
    console.log(`lingering close: the server read ${bytesRead} bytes of a 100 MB body it refused (the client wrote ${written})`);
  });
});
