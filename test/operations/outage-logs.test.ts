import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { assemble } from '../../src/assembly/modules.ts';
import { loadConfig } from '../../src/config.ts';
import { systemContext } from '../../src/platform/context.ts';
import type { Platform } from '../../src/platform/platform.ts';
import type { Services } from '../../src/platform/services.ts';
import { createTestDatabase } from '../support/database.ts';
import { redisSkipReason, redisUrl, secretKeyEnv } from '../support/env.ts';
import { eventually } from '../support/eventually.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { createTcpProxy } from '../support/tcp-proxy.ts';

const skip = await redisSkipReason('outage logging of Redis is');
// Made at the top level: the proxies close themselves when the file's tests end.
const redis = new URL(redisUrl);
const redisProxy = await createTcpProxy({ host: redis.hostname, port: Number(redis.port) || 6379 });
const smtp = await startSmtpServer();
const smtpProxy = await createTcpProxy({ host: '127.0.0.1', port: smtp.port });

interface Line {
  level: number;
  msg: string;
  dependency?: string;
}

const WARN = 40;
const INFO = 30;

describe('a lost dependency is logged once per outage: a warning, then an info line when it is back', { skip }, () => {
  const lines: Line[] = [];
  let platform: Platform;
  let services: Services;
  let redisErrors = 0;
  let drop: (() => Promise<void>) | undefined;

  before(async () => {
    const database = await createTestDatabase({ migrated: true });
    const logger = pino(
      { level: 'debug' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(JSON.parse(String(chunk)));
          done();
        },
      }),
    );
    const config = loadConfig({
      DATABASE_URL: database.url,
      ACADEMY_DATA_DIR: database.dataDir,
      REDIS_URL: redisProxy.url(redisUrl),
      SMTP_URL: smtpProxy.url(smtp.url),
      ...secretKeyEnv,
    });
    ({ platform, services } = assemble(config, { logger }));
    platform.redis?.on('error', () => redisErrors++);
    drop = () => database.drop();
  });
  after(async () => {
    await platform?.close();
    await drop?.();
  });

  const about = (dependency: string, level: number) => lines.filter((l) => l.dependency === dependency && l.level === level);

  test('Redis: one warning however many reconnect attempts fail, one info line on recovery', async () => {
    await eventually(() => platform.redis?.status === 'ready', { what: 'Redis to connect' });
    assert.equal(about('redis', WARN).length, 0, 'no warning while it is fine');
    await redisProxy.cut({ refuse: true });
    await eventually(() => redisErrors >= 3, { what: 'several failed reconnect attempts', timeoutMs: 15_000 });
    assert.deepEqual(
      about('redis', WARN).map((l) => l.msg),
      ['redis unavailable'],
    );
    await redisProxy.resume();
    await eventually(() => about('redis', INFO).length > 0, { what: 'the recovery line', timeoutMs: 15_000 });
    assert.deepEqual(
      about('redis', INFO).map((l) => l.msg),
      ['redis available again'],
    );
    assert.equal(about('redis', WARN).length, 1);
  });

  test('SMTP: failing health checks warn once; the first passing one says it is back', async () => {
    const health = services.health;
    const ctx = systemContext(platform);
    const mailStatus = async () => (await health.runAll(ctx)).checks.find((c) => c.name === 'mail')?.status;
    assert.equal(await mailStatus(), 'pass');
    await smtpProxy.cut({ refuse: true });
    for (let i = 0; i < 3; i++) assert.equal(await mailStatus(), 'fail');
    assert.deepEqual(
      about('mail', WARN).map((l) => l.msg),
      ['mail unavailable'],
    );
    assert.equal(about('mail', INFO).length, 0);
    await smtpProxy.resume();
    assert.equal(await mailStatus(), 'pass');
    assert.equal(await mailStatus(), 'pass');
    assert.deepEqual(
      about('mail', INFO).map((l) => l.msg),
      ['mail available again'],
    );
    assert.equal(about('mail', WARN).length, 1);
  });
});
