import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/assembly/app.ts';
import { readMultipart } from '../../src/http/multipart.ts';
import { bearer, createTestAssembly } from '../support/platform.ts';

/**
 * A route that reads every part of its multipart body, then fails the way a database connection
 * reset fails (`ECONNRESET`, as pg raises it): the client sent nothing wrong.
 */
async function testRoutes(http: FastifyInstance) {
  await http.register(async (scope) => {
    await scope.register(multipart);
    scope.post('/api/v1/read-then-fail', { config: { access: { scope: 'organization:write' } } }, async (request) => {
      await readMultipart(
        request,
        async (parts) => {
          for await (const part of parts) if (part.kind === 'file') for await (const _ of part.file.stream);
          throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, syscall: 'read' });
        },
        'nothing was kept.',
      );
      return { data: null };
    });
  });
}

const BOUNDARY = 'test-boundary';
const BODY =
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="type"\r\n\r\ncourse_document\r\n` +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n` +
  `${'x'.repeat(20_000)}\r\n--${BOUNDARY}--\r\n`;

describe('a multipart body read to its end', () => {
  let http: FastifyInstance;
  let base: string;
  let token: string;

  before(async () => {
    const assembly = await createTestAssembly();
    http = (await buildApp(assembly, { register: testRoutes })).http;
    token = (await assembly.platform.tokens.create({ name: 'w', scopes: ['organization:read', 'organization:write'] })).token;
    base = await http.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => http.close());

  test('a failure after the whole body was read is not blamed on the client (Node destroys a consumed request)', async () => {
    const res = await fetch(`${base}/api/v1/read-then-fail`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: BODY,
    });
    const body = (await res.json()) as { code: string };
    assert.equal(res.status, 503);
    assert.equal(body.code, 'unavailable');
  });

  test('a body the client cut short is still a 400 malformed_request', async () => {
    const { port } = new URL(base);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
      const cut = BODY.slice(0, 5_000);
      socket.write(
        `POST /api/v1/read-then-fail HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n` +
          `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${BODY.length}\r\n\r\n${cut}`,
      );
      // The client goes away halfway, as a dropped upload does (its write side only, to hear the answer).
      setTimeout(() => socket.end(), 100);
    });
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.match(answer, /"code":"malformed_request"/);
  });
});
