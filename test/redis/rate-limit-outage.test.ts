import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Writable } from 'node:stream';
import { after, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import pino from 'pino';
import { createRateLimiter } from '../../src/platform/rate-limit.ts';
import { redisSkipReason, redisUrl } from '../support/env.ts';
import { eventually } from '../support/eventually.ts';

const skip = await redisSkipReason('rate limits during a Redis outage are');

/** A TCP proxy in front of the test Redis that can be cut (every connection dropped, new ones refused) and restored. */
async function startProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port) || 6379, target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    cut: () => {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
    restore: () => listen(port),
    close: () => {
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}

function capturedLogger() {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('rate limits when Redis is lost', { skip }, () => {
  const prefix = `academy-test-${process.pid}-${randomBytes(4).toString('hex')}:rl`;
  const admin = skip ? null : new Redis(redisUrl);
  after(async () => {
    const keys = (await admin?.keys(`${prefix}:*`)) ?? [];
    if (keys.length) await admin?.del(...keys);
    admin?.disconnect();
  });

  test('two instances that saw each other admit at most the limit in total, and each warns once', async () => {
    const proxy = await startProxy(new URL(redisUrl));
    // The platform's client options: commands fail at once while the connection is down.
    const clients = [0, 1].map(() => {
      const client = new Redis(`redis://127.0.0.1:${proxy.port}`, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        connectTimeout: 2000,
      });
      client.on('error', () => {});
      return client;
    });
    const logs = [capturedLogger(), capturedLogger()];
    const limiters = clients.map((redis, i) =>
      createRateLimiter({ redis, prefix, limits: { default: 120 }, logger: logs[i]?.logger, heartbeatMs: 100 }),
    );
    try {
      await eventually(async () => clients.every((c) => c.status === 'ready'), { what: 'both clients to connect', timeoutMs: 5000 });
      // Each instance serves while Redis is up, and so learns that there are two of them.
      for (const limiter of limiters) assert.equal((await limiter.consume('default', 'token-1')).allowed, true);
      await eventually(async () => (await admin?.zcard(`${prefix}:instances`)) === 2, {
        what: 'both instances to register',
        timeoutMs: 5000,
      });
      // A few more heartbeats, so that the first instance has read the count of two as well.
      await new Promise((resolve) => setTimeout(resolve, 300));

      proxy.cut();
      await eventually(async () => clients.every((c) => c.status !== 'ready'), { what: 'both clients to lose Redis', timeoutMs: 5000 });
      const admitted = [0, 0];
      for (let i = 0; i < 100; i++) {
        for (const [n, limiter] of limiters.entries()) {
          const decision = await limiter.consume('default', 'token-1');
          if (decision.allowed) admitted[n] = (admitted[n] ?? 0) + 1;
        }
      }
      // Fail-open, but bounded: each instance takes half of the limit of 120.
      assert.deepEqual(admitted, [60, 60]);
      for (const { lines } of logs) {
        const warnings = lines.filter((line) => line.level === 40);
        assert.equal(warnings.length, 1, 'one warning per outage, not one per request');
        assert.match(warnings[0]?.msg ?? '', /Redis is unreachable: rate limits are counted by this process alone, at 1\/2 of each limit/);
      }

      await proxy.restore();
      await eventually(async () => clients.every((c) => c.status === 'ready'), { what: 'both clients to reconnect', timeoutMs: 10_000 });
      for (const limiter of limiters) await limiter.consume('default', 'token-1');
      // The registrations lapse during an outage longer than three heartbeats (a slow machine's, say);
      // once Redis is back, both instances are counted again.
      await eventually(async () => (await admin?.zcard(`${prefix}:instances`)) === 2, {
        what: 'both instances to register again',
        timeoutMs: 5000,
      });
      // By the next heartbeat or the first request a second after the outage's last failure.
      await eventually(
        async () => logs.every(({ lines }) => lines.some((line) => line.level === 30 && /Redis is reachable again/.test(line.msg))),
        {
          what: 'the recovery to be logged by both instances',
          timeoutMs: 5000,
        },
      );
      for (const limiter of limiters) await limiter.close();
      assert.equal(await admin?.zcard(`${prefix}:instances`), 0, 'a closed instance leaves the count');
    } finally {
      for (const limiter of limiters) await limiter.close();
      for (const client of clients) client.disconnect();
      proxy.close();
    }
  });
});
