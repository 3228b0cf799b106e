import assert from 'node:assert/strict';
import { utimesSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { parse as parseDisposition } from 'content-disposition';
import { modules } from '../../src/assembly/modules.ts';
import type { AcademyModule } from '../../src/modules/manifest.ts';
import { systemContext } from '../../src/platform/context.ts';
import type { Storage } from '../../src/platform/storage.ts';
import { STRAY_FILE_MIN_AGE_MS, sweepStrayFiles } from '../../src/platform/stray-files.ts';
import { runCli } from '../support/cli.ts';
import { assertFetchError } from '../support/errors.ts';
import { eventually } from '../support/eventually.ts';
import { fixtures } from '../support/fixtures.ts';
import { abandonOnLastAttempt } from '../support/jobs.ts';
import { bearer, createTestApp, type TestApp } from '../support/platform.ts';
import { startS3, type TestS3 } from '../support/s3.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const pdf = (size: number) => {
  const head = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj\n', 'latin1');
  const body = Buffer.alloc(Math.max(0, size - head.length - 6), 0x41);
  return Buffer.concat([head, body, Buffer.from('\n%%EOF')]).subarray(0, size);
};

interface Part {
  name: string;
  value?: string;
  file?: { content: Buffer; filename: string; type: string };
}

function form(parts: Part[]): FormData {
  const data = new FormData();
  for (const part of parts) {
    if (part.file) data.append(part.name, new Blob([part.file.content], { type: part.file.type }), part.file.filename);
    else data.append(part.name, part.value ?? '');
  }
  return data;
}

/** Files kept in the storage's documents area, and unfinished uploads (local storage). */
async function storedFiles(storage: Storage): Promise<number> {
  const usage = await storage.usage();
  return (usage.documents?.files ?? 0) + (usage['.partial']?.files ?? 0);
}

/** fetch, with JSON bodies read as the tests read them (untyped). */
const fetch = globalThis.fetch as (input: string, init?: RequestInit) => Promise<Omit<Response, 'json'> & { json(): Promise<any> }>;

for (const kind of ['local', 's3'] as const) {
  describe(`documents (${kind} storage)`, () => {
    let app: TestApp;
    let s3: TestS3 | null = null;
    let base: string;
    let writer: string;
    let reader: string;

    before(async () => {
      const rules = path.join(tmpdir(), `academy-document-types-${process.pid}.json`);
      writeFileSync(
        rules,
        JSON.stringify({
          profile_document: { max_bytes: 4096, media_types: ['image/png', 'image/jpeg'] },
          employment_letter: { max_bytes: 2000, media_types: ['application/pdf'] },
        }),
      );
      s3 = kind === 's3' ? await startS3() : null;
      app = await createTestApp({ env: { ACADEMY_DOCUMENT_TYPES_FILE: rules, ...s3?.env } });
      base = `${await app.http.listen({ port: 0, host: '127.0.0.1' })}/api/v1`;
      writer = await app.token(['documents:write', 'documents:read', 'search:read']);
      reader = await app.token(['documents:read']);
    });
    after(async () => {
      await app.http.close();
      await s3?.close();
    });

    const upload = (parts: Part[], token = writer) =>
      fetch(`${base}/documents`, { method: 'POST', headers: bearer(token), body: form(parts) });
    /** Uploads and returns the created document. */
    const created = async (parts: Part[]) => (await (await upload(parts)).json()).data;
    const get = (url: string, headers: Record<string, string> = {}) =>
      fetch(`${base}${url}`, { headers: { ...bearer(reader), ...headers } });
    const rowCount = async () =>
      Number(
        (
          await app.platform.database.db
            .selectFrom('documents')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    test('an upload is stored with its size and SHA-256, becomes available, and downloads byte for byte', async () => {
      const content = pdf(1500);
      const res = await upload([
        { name: 'type', value: 'employment_letter' },
        { name: 'title', value: 'Offer letter' },
        { name: 'file', file: { content, filename: 'offer.pdf', type: 'application/pdf' } },
      ]);
      assert.equal(res.status, 201, await res.clone().text());
      const { data } = await res.json();
      assert.equal(res.headers.get('location'), `/api/v1/documents/${data.id}`);
      assert.equal(data.status, 'stored');
      assert.equal(data.size, 1500);
      assert.equal(data.media_type, 'application/pdf');
      assert.equal(data.sha256, (await import('node:crypto')).createHash('sha256').update(content).digest('hex'));
      const worker = app.platform.createWorker({ pollMs: 20 });
      await worker.start();
      try {
        await eventually(async () => (await (await get(`/documents/${data.id}`)).json()).data.status === 'available', {
          what: 'the document to become available',
        });
      } finally {
        await worker.stop();
      }
      const download = await get(`/documents/${data.id}/download`);
      assert.equal(download.status, 200);
      assert.equal(download.headers.get('content-type'), 'application/pdf');
      assert.equal(download.headers.get('content-length'), '1500');
      assert.equal(download.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(download.headers.get('accept-ranges'), 'bytes');
      assert.ok(download.headers.get('etag'));
      assert.deepEqual(Buffer.from(await download.arrayBuffer()), content);
      const again = await get(`/documents/${data.id}/download`, { 'if-none-match': download.headers.get('etag') as string });
      assert.equal(again.status, 304);
    });

    test('a stored file that does not match what was received stays stored, and the document says why', async () => {
      const data = await created([
        { name: 'type', value: 'employment_letter' },
        { name: 'file', file: { content: pdf(1200), filename: 'altered.pdf', type: 'application/pdf' } },
      ]);
      assert.equal(data.failure_reason, null);
      // As if the file had changed in storage after it was received.
      const { db } = app.platform.database;
      await db
        .updateTable('documents')
        .set({ sha256: '0'.repeat(64) })
        .where('id', '=', data.id)
        .execute();
      assert.equal(await app.services.documents.process(systemContext(app.platform), data.id), 'mismatch');
      const now = (await (await get(`/documents/${data.id}`)).json()).data;
      assert.equal(now.status, 'stored');
      assert.match(now.failure_reason, /^The stored file does not match what was received \(size 1200 of 1200, SHA-256 /);
      assert.ok(now.updated_at > data.updated_at, 'the reason shows in updated_since');
    });

    test('a document whose check gives up (storage failing at every attempt) says why it is not available', async () => {
      const data = await created([
        { name: 'type', value: 'employment_letter' },
        { name: 'file', file: { content: pdf(1100), filename: 'unchecked.pdf', type: 'application/pdf' } },
      ]);
      await abandonOnLastAttempt(app.platform.database.db, 'documents.process', (job) => job.documentId === data.id);
      const worker = app.platform.createWorker({ pollMs: 20 });
      await worker.start();
      try {
        await eventually(async () => (await (await get(`/documents/${data.id}`)).json()).data.failure_reason !== null, {
          what: 'the document to say why it is not available',
        });
      } finally {
        await worker.stop();
      }
      const now = (await (await get(`/documents/${data.id}`)).json()).data;
      assert.equal(now.status, 'stored');
      assert.match(now.failure_reason, /^The stored file could not be checked: lease expired during the last attempt/);
    });

    test('an Idempotency-Key replays the same upload only: other bytes or fields under it are a 422; a refused upload frees it', async () => {
      const key = `upload-${kind}-${Date.now()}`;
      const keyed = (parts: Part[], idempotencyKey: string) =>
        fetch(`${base}/documents`, {
          method: 'POST',
          headers: { ...bearer(writer), 'idempotency-key': idempotencyKey },
          body: form(parts),
        });
      const letter = (content: Buffer, title = 'Keyed letter'): Part[] => [
        { name: 'type', value: 'employment_letter' },
        { name: 'title', value: title },
        { name: 'file', file: { content, filename: 'keyed.pdf', type: 'application/pdf' } },
      ];
      const rows = await rowCount();
      const files = await storedFiles(app.platform.storage);
      const content = pdf(800);
      const first = await keyed(letter(content), key);
      assert.equal(first.status, 201, await first.clone().text());
      const { data } = await first.json();
      // Another FormData: another multipart boundary, the same content.
      const again = await keyed(letter(content), key);
      assert.equal(again.status, 201);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal((await again.json()).data.id, data.id);
      // The same size, one byte changed; then the same file under another title.
      const changed = Buffer.from(content);
      changed[changed.length - 10] = 0x42;
      for (const parts of [letter(changed), letter(content, 'Another title')]) {
        const res = await keyed(parts, key);
        assert.equal(res.status, 422);
        assert.equal((await res.json()).code, 'idempotency_key_reused');
      }
      assert.equal(await rowCount(), rows + 1);
      assert.equal(await storedFiles(app.platform.storage), files + 1);
      // Refused (no type): nothing kept, and the mended upload under the same key is a new one.
      const refused = await keyed([{ name: 'file', file: { content, filename: 'keyed.pdf', type: 'application/pdf' } }], `${key}-mended`);
      assert.equal(refused.status, 422);
      assert.equal((await refused.json()).code, 'validation_failed');
      const mended = await keyed(letter(content), `${key}-mended`);
      assert.equal(mended.status, 201);
      assert.equal(mended.headers.get('idempotent-replayed'), null);
      assert.notEqual((await mended.json()).data.id, data.id);
    });

    test('two files in one upload are a 422 on file, too many parts a 413, in the contract codes, and nothing is kept', async () => {
      const rows = await rowCount();
      const files = await storedFiles(app.platform.storage);
      const file = { content: pdf(700), filename: 'letter.pdf', type: 'application/pdf' };
      const two = await upload([
        { name: 'type', value: 'employment_letter' },
        { name: 'file', file },
        { name: 'file', file },
      ]);
      assert.equal(two.status, 422, await two.clone().text());
      const twoBody = await two.json();
      assert.equal(twoBody.code, 'validation_failed');
      assert.deepEqual(twoBody.errors, { file: ['Send one file per upload.'] });
      const fields = Array.from({ length: 12 }, (_, i) => ({ name: `note${i}`, value: 'x' }));
      const many = await upload([{ name: 'type', value: 'employment_letter' }, ...fields, { name: 'file', file }]);
      assert.equal(many.status, 413);
      assert.equal((await many.json()).code, 'payload_too_large');
      assert.equal(await rowCount(), rows);
      assert.equal(await storedFiles(app.platform.storage), files);
    });

    test('a PDF renamed .png and declared image/png, for a type that takes only images, is a 415 and nothing is kept', async () => {
      const rows = await rowCount();
      const files = await storedFiles(app.platform.storage);
      const res = await upload([
        { name: 'type', value: 'profile_document' },
        { name: 'file', file: { content: pdf(900), filename: 'photo.png', type: 'image/png' } },
      ]);
      assert.equal(res.status, 415);
      const body = await res.json();
      assert.equal(body.code, 'unsupported_media_type');
      assert.match(body.message, /application\/pdf/);
      assert.equal(await rowCount(), rows);
      assert.equal(await storedFiles(app.platform.storage), files);
      // The same check when the type comes after the file.
      const late = await upload([
        { name: 'file', file: { content: pdf(900), filename: 'photo.png', type: 'image/png' } },
        { name: 'type', value: 'profile_document' },
      ]);
      assert.equal(late.status, 415);
      assert.equal((await late.json()).code, 'unsupported_media_type');
      assert.equal(await storedFiles(app.platform.storage), files);
      const png = await upload([
        { name: 'type', value: 'profile_document' },
        { name: 'file', file: { content: PNG, filename: 'photo.pdf', type: 'application/pdf' } },
      ]);
      assert.equal(png.status, 201, 'a PNG is a PNG, whatever its name and declared type');
      assert.equal((await png.json()).data.media_type, 'image/png');
    });

    test("a file one byte over its type's limit is a 413, with no row and no file", async () => {
      const rows = await rowCount();
      const files = await storedFiles(app.platform.storage);
      const exact = await upload([
        { name: 'type', value: 'employment_letter' },
        { name: 'file', file: { content: pdf(2000), filename: 'exact.pdf', type: 'application/pdf' } },
      ]);
      assert.equal(exact.status, 201, 'exactly the limit is accepted');
      const over = await upload([
        { name: 'type', value: 'employment_letter' },
        { name: 'file', file: { content: pdf(2001), filename: 'over.pdf', type: 'application/pdf' } },
      ]);
      assert.equal(over.status, 413);
      assert.equal((await over.json()).code, 'payload_too_large');
      assert.equal(await rowCount(), rows + 1);
      assert.equal(await storedFiles(app.platform.storage), files + 1);
    });

    test('a client that disconnects mid-upload leaves no row and no file', async () => {
      const rows = await rowCount();
      const files = await storedFiles(app.platform.storage);
      const { port } = new URL(base);
      const boundary = 'academyboundary';
      const head =
        `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nemployment_letter\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
      const socket = net.connect(Number(port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /api/v1/documents HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${writer}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100000\r\n\r\n${head}`,
      );
      socket.write(pdf(1000));
      await new Promise((resolve) => setTimeout(resolve, 200));
      socket.destroy();
      await eventually(async () => (await storedFiles(app.platform.storage)) === files, { what: 'the partial file to be removed' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(await rowCount(), rows);
      assert.equal(await storedFiles(app.platform.storage), files);
    });

    test('a complete body whose multipart ends without its closing boundary is a 400, and nothing is kept', async () => {
      const rows = await rowCount();
      const files = await storedFiles(app.platform.storage);
      const boundary = 'academyboundary';
      const cut =
        `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nemployment_letter\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`;
      // In one piece (as inject delivers it), the parser reports the end of the data rather than of the form.
      const response = await app.http.inject({
        method: 'POST',
        url: '/api/v1/documents',
        headers: { ...bearer(writer), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: cut,
      });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'malformed_request');
      assert.equal(await rowCount(), rows);
      await eventually(async () => (await storedFiles(app.platform.storage)) === files, { what: 'the partial file to be removed' });
    });

    test('supersedes_id archives the prior version; another type is a 422, a deleted prior a 409', async () => {
      const first = await created([
        { name: 'type', value: 'employment_letter' },
        { name: 'file', file: { content: pdf(800), filename: 'v1.pdf', type: 'application/pdf' } },
      ]);
      const second = await upload([
        { name: 'type', value: 'employment_letter' },
        { name: 'supersedes_id', value: String(first.id) },
        { name: 'file', file: { content: pdf(820), filename: 'v2.pdf', type: 'application/pdf' } },
      ]);
      assert.equal(second.status, 201);
      const v2 = (await second.json()).data;
      assert.equal(v2.supersedes_id, first.id);
      const prior = (await (await get(`/documents/${first.id}`)).json()).data;
      assert.equal(prior.status, 'archived');
      assert.equal(prior.superseded_by_id, v2.id);
      const otherType = await upload([
        { name: 'type', value: 'profile_document' },
        { name: 'supersedes_id', value: String(v2.id) },
        { name: 'file', file: { content: PNG, filename: 'x.png', type: 'image/png' } },
      ]);
      await assertFetchError(otherType.clone(), 422, 'validation_failed');
      assert.ok((await otherType.json()).errors.supersedes_id);
      assert.equal((await fetch(`${base}/documents/${v2.id}`, { method: 'DELETE', headers: bearer(writer) })).status, 200);
      const onDeleted = await upload([
        { name: 'type', value: 'employment_letter' },
        { name: 'supersedes_id', value: String(v2.id) },
        { name: 'file', file: { content: pdf(830), filename: 'v3.pdf', type: 'application/pdf' } },
      ]);
      assert.equal(onDeleted.status, 409);
      assert.equal((await onDeleted.json()).code, 'invalid_transition');
    });

    test('only the current version takes a new version: a superseded or archived one is a 409 conflict', async () => {
      const v1 = await created([
        { name: 'type', value: 'employment_letter' },
        { name: 'file', file: { content: pdf(840), filename: 'p1.pdf', type: 'application/pdf' } },
      ]);
      const v2 = await created([
        { name: 'type', value: 'employment_letter' },
        { name: 'supersedes_id', value: String(v1.id) },
        { name: 'file', file: { content: pdf(850), filename: 'p2.pdf', type: 'application/pdf' } },
      ]);
      const [rows, files] = [await rowCount(), await storedFiles(app.platform.storage)];
      const fork = await upload([
        { name: 'type', value: 'employment_letter' },
        { name: 'supersedes_id', value: String(v1.id) },
        { name: 'file', file: { content: pdf(860), filename: 'p3.pdf', type: 'application/pdf' } },
      ]);
      assert.equal(fork.status, 409, 'a superseded version takes no second new version');
      const body = await fork.json();
      assert.equal(body.code, 'conflict');
      assert.match(body.message, new RegExp(`superseded by document ${v2.id}`));
      assert.equal((await (await get(`/documents/${v1.id}`)).json()).data.superseded_by_id, v2.id);
      assert.equal(await rowCount(), rows);
      assert.equal(await storedFiles(app.platform.storage), files, 'the refused upload leaves no file');

      assert.equal((await fetch(`${base}/documents/${v2.id}/archive`, { method: 'POST', headers: bearer(writer) })).status, 200);
      const onArchived = await upload([
        { name: 'type', value: 'employment_letter' },
        { name: 'supersedes_id', value: String(v2.id) },
        { name: 'file', file: { content: pdf(870), filename: 'p4.pdf', type: 'application/pdf' } },
      ]);
      assert.equal(onArchived.status, 409, 'an archived version takes no new version');
      assert.equal((await onArchived.json()).code, 'conflict');
      assert.equal(await storedFiles(app.platform.storage), files);
    });

    test('of concurrent new versions of one version exactly one wins; the others are 409s and leave no file', async () => {
      const token = await app.token(['documents:write', 'documents:read']);
      const v1 = await created([
        { name: 'type', value: 'employment_letter' },
        { name: 'file', file: { content: pdf(900), filename: 'c1.pdf', type: 'application/pdf' } },
      ]);
      const files = await storedFiles(app.platform.storage);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          upload(
            [
              { name: 'type', value: 'employment_letter' },
              { name: 'supersedes_id', value: String(v1.id) },
              { name: 'file', file: { content: pdf(910 + i), filename: `c2-${i}.pdf`, type: 'application/pdf' } },
            ],
            token,
          ),
        ),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      assert.deepEqual(statuses, [201, 409, 409, 409, 409, 409, 409, 409]);
      const created201 = answers.find((answer) => answer.status === 201);
      assert.ok(created201);
      const winner = (await created201.json()).data;
      for (const loser of answers.filter((answer) => answer.status === 409)) assert.equal((await loser.json()).code, 'conflict');
      const versions = await app.platform.database.db
        .selectFrom('documents')
        .select(['id', 'storage_key'])
        .where('supersedes_id', '=', v1.id)
        .execute();
      assert.deepEqual(
        versions.map((row) => row.id),
        [winner.id],
      );
      assert.equal((await (await get(`/documents/${v1.id}`)).json()).data.superseded_by_id, winner.id);
      assert.equal(await storedFiles(app.platform.storage), files + 1, "storage holds the winner's file and none of the losers'");
      assert.ok(await app.platform.storage.exists(versions[0]?.storage_key as string));
    });

    test('a deleted document stays listed as deleted, its download is a 404, and it moves no further', async () => {
      const doc = await created([
        { name: 'type', value: 'employment_letter' },
        { name: 'file', file: { content: pdf(700), filename: 'gone.pdf', type: 'application/pdf' } },
      ]);
      const deleted = await fetch(`${base}/documents/${doc.id}`, { method: 'DELETE', headers: bearer(writer) });
      assert.equal((await deleted.json()).data.status, 'deleted');
      const listed = await (await get('/documents?status=deleted&per_page=100')).json();
      assert.ok(listed.data.some((d: { id: number }) => d.id === doc.id));
      const download = await get(`/documents/${doc.id}/download`);
      assert.equal(download.status, 404);
      assert.deepEqual(await download.json(), { message: 'The requested resource was not found.', code: 'not_found' });
      await assertFetchError(
        await fetch(`${base}/documents/${doc.id}`, { method: 'DELETE', headers: bearer(writer) }),
        409,
        'invalid_transition',
      );
      await assertFetchError(
        await fetch(`${base}/documents/${doc.id}/archive`, { method: 'POST', headers: bearer(writer) }),
        409,
        'invalid_transition',
      );
      const row = await app.platform.database.db
        .selectFrom('documents')
        .select('storage_key')
        .where('id', '=', doc.id)
        .executeTakeFirstOrThrow();
      assert.ok(await app.platform.storage.exists(row.storage_key), 'the file stays in storage');
    });

    test('Range gets a correct 206, a suffix range too, and an unsatisfiable one a 416', async () => {
      const content = Buffer.concat([PNG, Buffer.from('0123456789abcdefghij')]);
      const doc = await created([
        { name: 'type', value: 'profile_document' },
        { name: 'file', file: { content, filename: 'r.png', type: 'image/png' } },
      ]);
      const part = await get(`/documents/${doc.id}/download`, { range: 'bytes=10-19' });
      assert.equal(part.status, 206);
      assert.equal(part.headers.get('content-range'), `bytes 10-19/${content.length}`);
      assert.equal(part.headers.get('content-length'), '10');
      assert.deepEqual(Buffer.from(await part.arrayBuffer()), content.subarray(10, 20));
      const suffix = await get(`/documents/${doc.id}/download`, { range: 'bytes=-5' });
      assert.equal(suffix.status, 206);
      assert.deepEqual(Buffer.from(await suffix.arrayBuffer()), content.subarray(content.length - 5));
      const beyond = await get(`/documents/${doc.id}/download`, { range: `bytes=${content.length}-` });
      assert.equal(beyond.status, 416);
      assert.equal((await beyond.json()).code, 'range_not_satisfiable');
      assert.equal(beyond.headers.get('content-range'), `bytes */${content.length}`);
      const stale = await get(`/documents/${doc.id}/download`, { range: 'bytes=0-3', 'if-range': '"something-else"' });
      assert.equal(stale.status, 200, 'If-Range that does not match sends the whole file');
    });

    test('the range unit is case-insensitive; several ranges, or another unit, get the whole file', async () => {
      const content = Buffer.concat([PNG, Buffer.from('0123456789abcdefghij')]);
      const doc = await created([
        { name: 'type', value: 'profile_document' },
        { name: 'file', file: { content, filename: 'u.png', type: 'image/png' } },
      ]);
      for (const range of ['BYTES=0-1', 'Bytes=0-1']) {
        const part = await get(`/documents/${doc.id}/download`, { range });
        assert.equal(part.status, 206, `${range} is a range of bytes (RFC 9110: units are case-insensitive)`);
        assert.equal(part.headers.get('content-range'), `bytes 0-1/${content.length}`);
        assert.deepEqual(Buffer.from(await part.arrayBuffer()), content.subarray(0, 2));
      }
      const suffix = await get(`/documents/${doc.id}/download`, { range: 'BYTES=-5' });
      assert.equal(suffix.status, 206);
      assert.deepEqual(Buffer.from(await suffix.arrayBuffer()), content.subarray(content.length - 5));
      await assertFetchError(
        await get(`/documents/${doc.id}/download`, { range: `BYTES=${content.length}-` }),
        416,
        'range_not_satisfiable',
      );
      const longSuffix = await get(`/documents/${doc.id}/download`, { range: `bytes=-${content.length * 10}` });
      assert.equal(longSuffix.status, 206, 'a suffix longer than the file selects all of it (RFC 9110 §14.1.3)');
      assert.equal(longSuffix.headers.get('content-range'), `bytes 0-${content.length - 1}/${content.length}`);
      assert.deepEqual(Buffer.from(await longSuffix.arrayBuffer()), content);
      for (const range of ['bytes=0-1,10-12', 'items=0-1', 'bytes=x-y']) {
        const whole = await get(`/documents/${doc.id}/download`, { range });
        assert.equal(whole.status, 200, range);
        assert.deepEqual(Buffer.from(await whole.arrayBuffer()), content);
      }
      const current = await get(`/documents/${doc.id}/download`);
      await current.arrayBuffer();
      const matching = await get(`/documents/${doc.id}/download`, {
        range: 'BYTES=2-3',
        'if-range': current.headers.get('etag') as string,
      });
      assert.equal(matching.status, 206, 'If-Range with the current ETag keeps the range');
      assert.deepEqual(Buffer.from(await matching.arrayBuffer()), content.subarray(2, 4));
    });

    test('a file name with quotes, slashes and non-ASCII letters downloads under a safe Content-Disposition', async () => {
      const name = 'a/b\\Zeugnis "Müller" – été.png';
      const doc = await created([
        { name: 'type', value: 'profile_document' },
        { name: 'file', file: { content: PNG, filename: name, type: 'image/png' } },
      ]);
      assert.equal(doc.filename, 'Zeugnis "Müller" – été.png', 'no path survives');
      const res = await get(`/documents/${doc.id}/download`);
      const header = res.headers.get('content-disposition') as string;
      assert.match(header, /^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''/);
      const parsed = parseDisposition(header);
      assert.equal(parsed.type, 'attachment');
      assert.equal(parsed.parameters.filename, 'Zeugnis "Müller" – été.png');
    });

    test('list filters, PATCH changes metadata only, scopes are enforced, and search finds documents', async () => {
      const make = fixtures(app.platform);
      const student = await make.student({ name: 'Doc Owner' });
      const doc = await created([
        { name: 'type', value: 'profile_document' },
        { name: 'title', value: 'Passport photo zebracorn' },
        { name: 'file', file: { content: PNG, filename: 'passport.png', type: 'image/png' } },
      ]);
      const patched = await fetch(`${base}/documents/${doc.id}`, {
        method: 'PATCH',
        headers: { ...bearer(writer), 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Passport photo 2026 zebracorn', student_id: student.id }),
      });
      assert.equal(patched.status, 200);
      const after = (await patched.json()).data;
      assert.equal(after.title, 'Passport photo 2026 zebracorn');
      assert.equal(after.student_id, student.id);
      assert.equal(after.sha256, doc.sha256);
      const noStudent = await fetch(`${base}/documents/${doc.id}`, {
        method: 'PATCH',
        headers: { ...bearer(writer), 'content-type': 'application/json' },
        body: JSON.stringify({ student_id: 2147483000 }),
      });
      assert.equal(noStudent.status, 422);
      assert.equal((await noStudent.json()).code, 'validation_failed');
      const byType = await (await get('/documents?type=profile_document&per_page=100')).json();
      assert.ok(byType.data.every((d: { type: string }) => d.type === 'profile_document'));
      assert.ok(byType.data.some((d: { id: number }) => d.id === doc.id));
      await assertFetchError(await get('/documents?status=lost'), 422, 'validation_failed');
      await assertFetchError(await get('/documents?type=diary'), 422, 'validation_failed');
      await assertFetchError(await upload([{ name: 'type', value: 'profile_document' }], reader), 403, 'insufficient_scope');
      const missing = await upload([{ name: 'type', value: 'profile_document' }]);
      await assertFetchError(missing.clone(), 422, 'validation_failed');
      assert.ok((await missing.json()).errors.file);
      const json = await fetch(`${base}/documents`, {
        method: 'POST',
        headers: { ...bearer(writer), 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(json.status, 415);
      assert.equal((await json.json()).code, 'unsupported_media_type');
      const found = await (await fetch(`${base}/search?q=zebracorn`, { headers: bearer(writer) })).json();
      assert.deepEqual(
        found.data.documents.items.map((hit: { id: number; path: string }) => [hit.id, hit.path]),
        [[doc.id, `/api/v1/documents/${doc.id}`]],
      );
    });

    test('stray files: those no document or report names are found, counted in a dry run and removed; named and young ones stay', async () => {
      const named = await created([
        { name: 'type', value: 'employment_letter' },
        { name: 'file', file: { content: pdf(1100), filename: 'kept.pdf', type: 'application/pdf' } },
      ]);
      const namedKey = (
        await app.platform.database.db.selectFrom('documents').select('storage_key').where('id', '=', named.id).executeTakeFirstOrThrow()
      ).storage_key;
      const { storage } = app.platform;
      // As a process stopped between storing a file and committing its row would leave them.
      const strayDocument = (await storage.put(Readable.from([Buffer.from('left behind')]), { prefix: 'documents' })).key;
      const strayReport = (await storage.put(Readable.from([Buffer.from('a report retried elsewhere')]), { prefix: 'reports' })).key;
      // An expired report whose file outlived its expiry (a stop between the two): its row still names it.
      const expiredFile = (await storage.put(Readable.from([Buffer.from('expired rows')]), { prefix: 'reports' })).key;
      const availableFile = (await storage.put(Readable.from([Buffer.from('available rows')]), { prefix: 'reports' })).key;
      const at = new Date().toISOString();
      for (const [status, key] of [
        ['expired', expiredFile],
        ['available', availableFile],
      ] as const) {
        await app.platform.database.db
          .insertInto('reports')
          .values({ type: 'enrolments', format: 'csv', status, parameters: '{}', storage_key: key, created_at: at, updated_at: at })
          .execute();
      }
      const owners = (modules as readonly AcademyModule[]).flatMap((module) => (module.files ? [module.files] : []));
      assert.deepEqual(owners.map((owner) => owner.area).sort(), ['documents', 'reports']);
      const deps = { storage, db: app.platform.database.db };
      const sweep = (dryRun: boolean, now = Date.now() + 2 * STRAY_FILE_MIN_AGE_MS) =>
        sweepStrayFiles(deps, owners, { olderThanMs: STRAY_FILE_MIN_AGE_MS, now, dryRun });

      // Young files (an upload whose row may not be committed yet) are not even looked at.
      const young = await sweep(false, Date.now());
      assert.deepEqual(
        young.map((area) => area.checked),
        [0, 0],
      );
      assert.ok(await storage.exists(strayDocument));

      const counted = await sweep(true);
      const byArea = Object.fromEntries(counted.map((area) => [area.area, area]));
      assert.ok((byArea.documents?.files ?? 0) >= 1 && (byArea.reports?.files ?? 0) >= 1, JSON.stringify(counted));
      assert.ok((byArea.documents?.checked ?? 0) > (byArea.documents?.files ?? 0), 'the named files are checked too');
      assert.ok(await storage.exists(strayDocument), 'a dry run removes nothing');
      assert.ok(await storage.exists(strayReport));

      const removed = await sweep(false);
      assert.deepEqual(
        removed.map((area) => area.files),
        counted.map((area) => area.files),
      );
      assert.equal(await storage.exists(strayDocument), false);
      assert.equal(await storage.exists(strayReport), false);
      assert.equal(await storage.exists(expiredFile), false, "an expired report's file goes");
      assert.ok(await storage.exists(availableFile), "an available report's file stays");
      assert.ok(await storage.exists(namedKey), 'a file its document names stays');
      assert.equal((await get(`/documents/${named.id}/download`)).status, 200);
      assert.deepEqual(
        (await sweep(true)).map((area) => area.files),
        [0, 0],
      );
    });

    if (kind === 'local') {
      test('academy admin storage sweep: a dry run, then the removal, of files older than the bound', async () => {
        const stray = (await app.platform.storage.put(Readable.from([Buffer.from('orphan')]), { prefix: 'documents' })).key;
        const env = { DATABASE_URL: app.platform.database.url, ACADEMY_DATA_DIR: app.platform.config.dataDir };
        const sweep = async (...args: string[]) => {
          const result = await runCli(['--json', 'admin', 'storage', 'sweep', ...args], env);
          assert.equal(result.code, 0, result.stderr);
          return JSON.parse(result.stdout) as { dryRun: boolean; areas: { area: string; files: number }[] };
        };
        // Just written: younger than the hour a file may wait for its row.
        assert.equal((await sweep('--dry-run')).areas.find((area) => area.area === 'documents')?.files, 0);
        const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
        utimesSync(path.join(app.platform.storage.root, ...stray.split('/')), twoHoursAgo, twoHoursAgo);
        const dry = await sweep('--dry-run');
        assert.equal(dry.dryRun, true);
        assert.equal(dry.areas.find((area) => area.area === 'documents')?.files, 1);
        assert.ok(await app.platform.storage.exists(stray));
        // Older than three hours only: not this one.
        assert.equal((await sweep('--older-than-hours', '3')).areas.find((area) => area.area === 'documents')?.files, 0);
        assert.equal((await sweep()).areas.find((area) => area.area === 'documents')?.files, 1);
        assert.equal(await app.platform.storage.exists(stray), false);
        const refused = await runCli(['admin', 'storage', 'sweep', '--older-than-hours', '0'], env);
        assert.notEqual(refused.code, 0);
        assert.match(refused.stderr, /--older-than-hours must be a whole number from 1/);
      });
    }
  });
}
