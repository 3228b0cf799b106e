// Uploads: one 200 MB file (BENCH_UPLOAD_MB) streamed to `POST /api/v1/documents` of an Academy server
// (its own process, over SQLite, local storage) from this process over loopback. Reported: MB/s from
// the first byte sent to the answer, and the growth of the server's resident memory (sampled from
// /proc every 20 ms) over its level before the upload. Targets: ≥ 100 MB/s, growth < 64 MB.
// Standalone: node --import ./bin/tsx-loader.js bench/documents.ts
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { SERVER_FLAGS, startServer, stop } from './http.ts';
import { type BenchRow, formatTable } from './report.ts';

const MB = 1024 * 1024;

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** Streams `megabytes` of random content as the file of a multipart upload; resolves with the answer. */
function upload(base: string, token: string, megabytes: number): Promise<{ status: number; body: string; seconds: number }> {
  const boundary = `academy-bench-${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\ncourse_document\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = randomBytes(MB);
  const url = new URL(`${base}/api/v1/documents`);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + megabytes * MB + tail.length,
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (data) => (body += data));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body, seconds: (performance.now() - started) / 1000 }));
      },
    );
    request.on('error', reject);
    let sent = 0;
    const pump = () => {
      while (sent < megabytes) {
        sent += 1;
        if (!request.write(chunk)) return void request.once('drain', pump);
      }
      request.end(tail);
    };
    request.write(head);
    pump();
  });
}

export async function documentsBench(): Promise<BenchRow[]> {
  const megabytes = Number(process.env.BENCH_UPLOAD_MB ?? 200);
  const server = await startServer<{ base: string; token: string }>('app-server.ts', SERVER_FLAGS);
  try {
    const pid = server.child.pid as number;
    // A small upload first, so that the first-use costs (modules, storage directories) are not counted.
    await upload(server.ready.base, server.ready.token, 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = rssOf(pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssOf(pid));
    }, 20);
    const result = await upload(server.ready.base, server.ready.token, megabytes);
    clearInterval(sampler);
    peak = Math.max(peak, rssOf(pid));
    if (result.status !== 201) throw new Error(`the upload was answered ${result.status}: ${result.body}`);
    const rate = megabytes / result.seconds;
    const growth = (peak - before) / MB;
    return [
      {
        suite: 'documents',
        target: `POST /documents, a ${megabytes} MB file (SQLite, local storage)`,
        note:
          `${rate.toFixed(0)} MB/s (target ≥ 100: ${rate >= 100 ? 'met' : 'MISSED'}); server RSS ${(before / MB).toFixed(0)} MB before, ` +
          `peak growth ${growth.toFixed(1)} MB (target < 64: ${growth < 64 ? 'met' : 'MISSED'}); ${result.seconds.toFixed(2)} s`,
      },
    ];
  } finally {
    await stop(server.child);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(formatTable(await documentsBench()));
}
