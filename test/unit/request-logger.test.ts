import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify, { LogController } from 'fastify';
import pino from 'pino';
import { requestLogger, serverLogger } from '../../src/http/request-logger.ts';

/** A pino logger writing to an array of parsed lines, and how many children it made. */
function capture(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const parent = pino({ level, base: null, timestamp: false }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  let children = 0;
  const child = parent.child;
  // Counted, and made from whichever logger it is called on (a child's children inherit this method).
  parent.child = function (this: typeof parent, ...args: Parameters<typeof child>) {
    children++;
    return child.apply(this, args);
  } as typeof parent.child;
  return { parent, lines, children: () => children };
}

describe("a request's logger", () => {
  test('makes no child until something logs, then writes what the child would', () => {
    const { parent, lines, children } = capture();
    const log = requestLogger(parent, { reqId: 'r-1' }, {});
    assert.equal(log.level, 'info');
    assert.equal(children(), 0);

    log.info({ route: '/x' }, 'first');
    log.warn('second %s', 'line');
    log.debug('not written at info');
    assert.equal(children(), 1);
    assert.deepEqual(lines, [
      { level: 30, reqId: 'r-1', route: '/x', msg: 'first' },
      { level: 40, reqId: 'r-1', msg: 'second line' },
    ]);
  });

  test('takes a level of its own, and its children keep its bindings', () => {
    const { parent, lines } = capture();
    const log = requestLogger(parent, { reqId: 'r-2' }, { level: 'debug' });
    assert.equal(log.level, 'debug');
    log.debug('written at debug');
    log.child({ job: 7 }).error('from a child');
    assert.deepEqual(lines, [
      { level: 20, reqId: 'r-2', msg: 'written at debug' },
      { level: 50, reqId: 'r-2', job: 7, msg: 'from a child' },
    ]);
    log.level = 'error';
    log.warn('not written at error');
    assert.equal(lines.length, 2);
  });

  test("Fastify's logger writes the logger's lines and makes each request's logger only when it logs", async () => {
    const { parent, lines, children } = capture();
    const app = Fastify({ loggerInstance: serverLogger(parent), logController: new LogController({ disableRequestLogging: true }) });
    app.get('/quiet', async () => 'ok');
    app.get('/loud', async (request) => {
      request.log.info('from the route');
      return 'ok';
    });
    try {
      await app.ready();
      app.log.warn('from the server');
      // The plugin's logger Fastify made of the server's, once; then none for a request that logs nothing.
      const made = children();
      await app.inject({ url: '/quiet' });
      assert.equal(children(), made);
      await app.inject({ url: '/loud' });
      assert.equal(children(), made + 1);
      assert.deepEqual(
        lines.filter((line) => line.msg !== undefined && String(line.msg).startsWith('from')),
        [
          { level: 40, msg: 'from the server' },
          { level: 30, reqId: lines.find((line) => line.msg === 'from the route')?.reqId, msg: 'from the route' },
        ],
      );
      assert.equal(typeof lines.find((line) => line.msg === 'from the route')?.reqId, 'string');
    } finally {
      await app.close();
    }
  });
});
