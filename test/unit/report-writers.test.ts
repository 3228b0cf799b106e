import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { rowWriter } from '../../src/modules/reports/writers.ts';

const columns = [
  { key: 'id', header: 'id' },
  { key: 'text', header: 'text' },
];
/** A page of rows whose text does not compress: what is written stays about as large in the zip. */
const page = (from: number) => Array.from({ length: 1000 }, (_, i) => [from + i, randomBytes(96).toString('base64')]);

for (const format of ['csv', 'xlsx'] as const) {
  test(`a ${format} writer waits while its file takes nothing, and goes on when it reads again`, async () => {
    // A file that does not read yet: a slow disk or bucket.
    const out = new PassThrough();
    const writer = await rowWriter(format, out, columns, 'Test');
    let pages = 0;
    let waitedAt: number | null = null;
    // 80 pages of 1000 rows of about 200 bytes each: 16 MB, far more than the streams' buffers hold.
    while (pages < 80) {
      const written = writer.write(page(pages * 1000));
      // Taken at once, a page settles within a few turns of the event loop, however loaded the machine;
      // a page that waits for the file cannot settle before the file reads.
      let settled = false;
      written.then(() => {
        settled = true;
      });
      for (let turn = 0; turn < 5 && !settled; turn++) await new Promise((resolve) => setImmediate(resolve));
      if (!settled) {
        waitedAt ??= pages;
        // The file starts reading: the waiting page is taken, and so is every later one.
        out.resume();
        await written;
      }
      pages++;
    }
    assert.notEqual(waitedAt, null, `all ${pages} pages were taken while the file read nothing`);
    // At most a few megabytes of rows are held before the writer waits (the zip's buffers and its
    // compressor's take more than a CSV's one stream).
    assert.ok((waitedAt as number) <= 30, `the writer waited only at page ${waitedAt}`);
    await writer.end();
    out.end();
  });
}
