import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { PRODUCT_VERSION } from '../../src/platform/build.ts';
import { createLogger } from '../../src/platform/platform.ts';

test('a log line names its level, has an ISO time, and the process, host and version', () => {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const logger = createLogger({ logLevel: 'info' }, sink);
  logger.warn({ reqId: 'r-1' }, 'something to know');
  logger.debug('not written at info');
  assert.equal(lines.length, 1);
  const [line] = lines;
  assert.equal(line?.level, 'warn');
  assert.match(String(line?.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.ok(Math.abs(Date.parse(String(line?.time)) - Date.now()) < 60_000, 'now, in UTC');
  assert.equal(line?.pid, process.pid);
  assert.equal(line?.hostname, hostname());
  assert.equal(line?.version, PRODUCT_VERSION);
  assert.equal(line?.msg, 'something to know');
  assert.equal(line?.reqId, 'r-1');
});
