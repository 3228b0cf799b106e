import type { IncomingMessage } from 'node:http';
import type { Config } from '../config.ts';

type Limits = Pick<Config, 'lingerMs' | 'lingerBytes'>;

/**
 * Closes the connection of a request answered before its body arrived (an early 401, 403, 413, 415,
 * 422 or 429) gracefully, as RFC 9112 §9.6 asks: once the answer is written the server stops writing
 * (a FIN) but keeps reading, and discards what the client still sends, for at most `lingerMs` and
 * `lingerBytes` (past it nothing more is read); then the connection is destroyed. Closed at once instead, the socket would be closed
 * with the body still arriving, and the kernel answers that with a reset: a client still writing its
 * body (Node's fetch, undici) then fails with EPIPE or ECONNRESET before it reads the answer. A client
 * that stalls is cut off at the linger deadline, or before it by the request timeout, which still applies.
 *
 * Call it before the response is written (it must see the body unread): the body's readers (the
 * multipart parser) are detached and the rest of the body is read and counted here.
 */
export function lingerAfterResponse(request: IncomingMessage, limits: Limits): void {
  const { socket } = request;
  if (limits.lingerMs === 0 || request.complete || request.destroyed || socket.destroyed) return;
  let read = 0;
  request.unpipe();
  request.on('data', (chunk: Buffer) => {
    read += chunk.length;
    // Past the budget nothing more is read (the kernel's window closes, the client's writes wait) until
    // the deadline: a client reading its answer meanwhile closes the connection itself.
    if (read > limits.lingerBytes) request.pause();
  });
  // The whole body has arrived: nothing is left to read, and the answer is delivered however the
  // connection is closed, once it has been handed to the kernel.
  request.once('end', () => {
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  });
  request.resume();
  // Node ends the socket of a `connection: close` response with destroySoon() (lib/_http_server.js,
  // resOnFinish): it ends it, then destroys it once written. Here the destroy waits for the linger instead.
  socket.destroySoon = () => {
    socket.end();
    const deadline = setTimeout(() => socket.destroy(), limits.lingerMs);
    socket.once('close', () => clearTimeout(deadline));
  };
}
