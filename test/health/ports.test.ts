import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { after, describe, test } from 'node:test';
import { NotFoundError } from '../../src/platform/errors.ts';
import { createMailer } from '../../src/platform/mail.ts';
import { createLocalStorage, FileTooLargeError } from '../../src/platform/storage.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'academy-ports-'));
  dirs.push(dir);
  return dir;
}

/** Splits an RFC 5322 message into unfolded headers (lower-case names) and body. */
function parseMessage(raw: string): { headers: Record<string, string>; body: string } {
  const split = raw.search(/\r?\n\r?\n/);
  assert.ok(split > 0, 'a header block followed by an empty line');
  const headerText = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of headerText.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    assert.ok(colon > 0, `a header line: ${line}`);
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body: raw.slice(split).trim() };
}

/** Decodes RFC 2047 encoded words (=?UTF-8?B|Q?…?=) of a header value. */
function decodeWords(value: string): string {
  return value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=/gi, (_, encoding: string, data: string) =>
    encoding.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

/** The smallest SMTP server that accepts mail: enough for nodemailer to deliver to it. */
async function smtpReceiver(): Promise<{ url: string; messages: string[]; close(): void }> {
  const messages: string[] = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let data: string | null = null;
    socket.write('220 localhost ESMTP test\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (data !== null) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          messages.push(data + buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          data = null;
          socket.write('250 OK queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol === -1) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 localhost\r\n');
        else if (verb === 'DATA') {
          data = '';
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => server.close() };
}

describe('mail port', () => {
  test('file mode writes each message as a parseable .eml file, atomically, under <data dir>/mail', async () => {
    const dataDir = tempDir();
    const mailer = createMailer({ smtpUrl: null, dataDir, mailFrom: 'Northwind Academy <office@northwind.example>' });
    assert.equal(mailer.mode, 'file');
    await mailer.verify();
    const sent = await mailer.send({
      to: 'Ada Lovelace <ada@example.org>',
      subject: 'Your invitation to Académie',
      text: 'Hello Ada,\nyou are invited.',
      html: '<p>Hello Ada,<br>you are invited.</p>',
    });
    assert.match(sent.messageId, /^<.+@.+>$/);
    assert.ok(sent.file);
    const files = readdirSync(path.join(dataDir, 'mail'));
    assert.deepEqual(files, [path.basename(sent.file)], 'one finished file, no partial left behind');
    assert.match(files[0] as string, /\.eml$/);

    const { headers, body } = parseMessage(readFileSync(sent.file, 'utf8'));
    assert.equal(headers['message-id'], sent.messageId);
    assert.equal(headers.to, 'Ada Lovelace <ada@example.org>');
    assert.equal(headers.from, 'Northwind Academy <office@northwind.example>', 'the configured sender (ACADEMY_MAIL_FROM)');
    assert.match(headers.subject ?? '', /^=\?UTF-8\?/i, 'a non-ASCII subject is encoded');
    assert.equal(decodeWords(headers.subject ?? ''), 'Your invitation to Académie');
    assert.match(headers['content-type'] ?? '', /^multipart\/alternative; boundary=/);
    assert.match(body, /Content-Type: text\/plain/);
    assert.match(body, /Content-Type: text\/html/);
    assert.match(body, /you are invited\./);

    const second = await mailer.send({ to: 'b@example.org', subject: 'Plain', text: 'Only text.' });
    assert.notEqual(second.file, sent.file);
    const plain = parseMessage(readFileSync(second.file as string, 'utf8'));
    assert.equal(plain.headers.subject, 'Plain');
    assert.match(plain.headers['content-type'] ?? '', /^text\/plain/);
    assert.equal(plain.body, 'Only text.');
    mailer.close();
  });

  test('SMTP mode delivers to the server in SMTP_URL; verify() fails fast when it is unreachable', async () => {
    const receiver = await smtpReceiver();
    try {
      const mailer = createMailer({ smtpUrl: receiver.url, dataDir: tempDir() });
      assert.equal(mailer.mode, 'smtp');
      await mailer.verify();
      const sent = await mailer.send({ to: 'c@example.org', subject: 'Over SMTP', text: 'Delivered.' });
      assert.equal(sent.file, null);
      assert.equal(receiver.messages.length, 1);
      const { headers, body } = parseMessage(receiver.messages[0] as string);
      assert.equal(headers['message-id'], sent.messageId);
      assert.equal(headers.subject, 'Over SMTP');
      assert.equal(body, 'Delivered.');
      mailer.close();
    } finally {
      receiver.close();
    }
    const down = createMailer({ smtpUrl: 'smtp://127.0.0.1:1', dataDir: tempDir() });
    await assert.rejects(down.verify(), /ECONNREFUSED/);
    down.close();
  });
});

describe('file storage port', () => {
  const root = () => path.join(tempDir(), 'files');

  test('put streams a file in and reports its key, size and SHA-256; get streams it back', async () => {
    const storage = createLocalStorage(root());
    const content = randomBytes(300_000);
    // Many small chunks: the content is never needed whole.
    const chunks = Array.from({ length: 300 }, (_, i) => content.subarray(i * 1000, (i + 1) * 1000));
    const stored = await storage.put(Readable.from(chunks), { prefix: 'documents' });
    assert.match(stored.key, /^documents\/\d{4}\/\d{2}\/[0-9a-f]{32}$/);
    assert.equal(stored.size, content.length);
    assert.equal(stored.sha256, createHash('sha256').update(content).digest('hex'));
    assert.equal(await storage.exists(stored.key), true);
    const { stream, size } = await storage.get(stored.key);
    assert.equal(size, content.length);
    const back: Buffer[] = [];
    for await (const chunk of stream) back.push(chunk as Buffer);
    assert.ok(Buffer.concat(back).equals(content));
    assert.deepEqual(readdirSync(path.join(storage.root, '.partial')), [], 'no partial file is left');
  });

  test('delete removes a file; a missing key is NotFound on get and false on exists/delete', async () => {
    const storage = createLocalStorage(root());
    const stored = await storage.put(Readable.from([Buffer.from('short-lived')]));
    assert.equal(await text((await storage.get(stored.key)).stream), 'short-lived');
    assert.equal(await storage.delete(stored.key), true);
    assert.equal(await storage.exists(stored.key), false);
    assert.equal(await storage.delete(stored.key), false);
    await assert.rejects(storage.get(stored.key), NotFoundError);
  });

  test('an upload past maxBytes is refused and nothing of it is kept', async () => {
    const storage = createLocalStorage(root());
    const chunks = Array.from({ length: 20 }, () => randomBytes(1024));
    await assert.rejects(storage.put(Readable.from(chunks), { maxBytes: 10_000, prefix: 'documents' }), (error: unknown) => {
      assert.ok(error instanceof FileTooLargeError);
      assert.equal(error.status, 413);
      assert.equal(error.code, 'payload_too_large');
      assert.equal(error.limit, 10_000);
      return true;
    });
    assert.deepEqual(readdirSync(path.join(storage.root, '.partial')), []);
    const exact = await storage.put(Readable.from([randomBytes(10_000)]), { maxBytes: 10_000 });
    assert.equal(exact.size, 10_000, 'exactly the limit is allowed');
  });

  test('keys that could leave the storage root are refused', async () => {
    const storage = createLocalStorage(root());
    for (const key of ['../etc/passwd', '/etc/passwd', 'a/../../b', 'a//b', '.partial/x', 'A/B', '']) {
      await assert.rejects(storage.get(key), /Invalid storage key/, key);
      await assert.rejects(storage.exists(key), /Invalid storage key/, key);
      await assert.rejects(storage.delete(key), /Invalid storage key/, key);
    }
    await assert.rejects(storage.put(Readable.from([Buffer.from('x')]), { prefix: '../up' }), /Invalid storage key/);
  });

  test('probe writes, reads back and removes a file', async () => {
    const storage = createLocalStorage(root());
    await storage.probe();
    assert.deepEqual(readdirSync(path.join(storage.root, '.partial')), []);
  });
});
