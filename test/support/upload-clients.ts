// A worker thread that uploads the same 8 MB PDF several times with a real HTTP client and tallies
// what it got. It runs in a thread of its own so that the client has an event loop apart from the
// server's, as a client in another process does: whether an answer or a socket error reaches the
// client first depends on that loop's timing, not on the server's (test/http/lingering-close.test.ts).
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { FormData as UndiciFormData, fetch as undiciFetch } from 'undici';

export type ClientName = 'global fetch' | 'undici';

export interface UploadRun {
  client: ClientName;
  url: string;
  token: string;
  /** The `type` field sent before the file. */
  type: string;
  fileBytes: number;
  times: number;
  /** Uploads in flight at once. */
  lanes: number;
}

/** The answers and failures of a run: `422 validation_failed` → count, `fetch failed (EPIPE)` → count. */
export type Tally = Record<string, number>;

/** Runs `run` in a worker thread and resolves with its tally. */
export function uploadInThread(run: UploadRun): Promise<Tally> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: run });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the upload thread exited (${code}) without a tally`)));
  });
}

async function upload(run: UploadRun, file: Buffer, from: string): Promise<string> {
  // Each upload comes from a client address of its own (through the server's trusted proxy), so that
  // the limit on requests without a valid token per address is not what answers.
  const headers = { authorization: `Bearer ${run.token}`, 'x-forwarded-for': from };
  const blob = new Blob([file], { type: 'application/pdf' });
  let res: Response;
  if (run.client === 'global fetch') {
    const form = new FormData();
    form.append('type', run.type);
    form.append('file', blob, 'letter.pdf');
    res = await fetch(run.url, { method: 'POST', headers, body: form });
  } else {
    const form = new UndiciFormData();
    form.append('type', run.type);
    form.append('file', blob, 'letter.pdf');
    res = (await undiciFetch(run.url, { method: 'POST', headers, body: form })) as unknown as Response;
  }
  const body = (await res.json()) as { code?: string };
  return `${res.status} ${body.code}`;
}

async function tally(run: UploadRun): Promise<Tally> {
  const file = Buffer.concat([Buffer.from('%PDF-1.4\n', 'latin1'), Buffer.alloc(run.fileBytes - 9, 0x41)]);
  const outcomes: Tally = {};
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < run.times; i = next++) {
      let outcome: string;
      try {
        outcome = await upload(run, file, `198.51.100.${(i % 250) + 1}`);
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        outcome = `${(error as Error).message} (${cause?.code ?? cause?.message})`;
      }
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: run.lanes }, lane));
  return outcomes;
}

if (parentPort && workerData) {
  parentPort.postMessage(await tally(workerData as UploadRun));
}
