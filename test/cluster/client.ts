import { setTimeout as sleep } from 'node:timers/promises';

/** One request as the client saw it in the end, after any retries on the other API process. */
export interface Outcome {
  status: number;
  body: unknown;
  /** How many times it was sent (1 when the first attempt was answered). */
  attempts: number;
  /** The last connection error, when no answer came at all (`status` is then 0). */
  error?: string;
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  /** A raw body (a multipart upload), sent as it is on every attempt. */
  raw?: { contentType: string; data: Buffer };
  /** Sent as `Idempotency-Key` on every attempt, so that a retried POST is done at most once. */
  idempotencyKey?: string;
  /** Which API process to try first (the others follow in turn). */
  prefer?: number;
  /** How long to keep retrying before giving up (the outcome then says what was seen last). */
  budgetMs?: number;
}

/** How long a request whose Idempotency-Key is still held elsewhere (409 `idempotency_key_in_use`) is retried. */
const IN_USE_PATIENCE_MS = 10_000;

/** What a retry is worth: no answer, an API process going down or coming up, or the database cut off. */
function retryable(status: number, body: unknown): boolean {
  if (status === 0 || status === 502 || status === 503) return true;
  // The same key is still held by an earlier attempt (on a process that may just have died).
  return status === 409 && (body as { code?: string } | null)?.code === 'idempotency_key_in_use';
}

/**
 * A client of several API processes, as a load balancer with retries would be: each request goes to
 * one process and, when that one cannot be reached or answers 503, to the next, with the same
 * Idempotency-Key. `urls()` is read on every attempt, so a restarted process (on a new port) is used
 * as soon as it listens.
 */
export function clusterClient(token: string, urls: () => (string | null)[]) {
  return {
    async call(path: string, options: CallOptions = {}): Promise<Outcome> {
      const deadline = Date.now() + (options.budgetMs ?? 45_000);
      let attempts = 0;
      let turn = options.prefer ?? 0;
      let last: Outcome = { status: 0, body: null, attempts: 0, error: 'not sent' };
      let inUseSince: number | null = null;
      for (;;) {
        const all = urls();
        const base = all[turn % all.length] ?? all.find((u) => u !== null);
        turn += 1;
        if (base) {
          attempts += 1;
          const headers: Record<string, string> = { authorization: `Bearer ${token}` };
          let payload: string | Buffer | undefined;
          if (options.raw) {
            headers['content-type'] = options.raw.contentType;
            payload = options.raw.data;
          } else if (options.body !== undefined) {
            headers['content-type'] = 'application/json';
            payload = JSON.stringify(options.body);
          }
          if (options.idempotencyKey) {
            headers['idempotency-key'] = options.idempotencyKey;
            // The same request id on every attempt: what it leaves behind (a report) can be told apart.
            headers['x-request-id'] = options.idempotencyKey;
          }
          try {
            const res = await fetch(`${base}${path}`, {
              method: options.method ?? 'GET',
              headers,
              body: payload,
              signal: AbortSignal.timeout(20_000),
            });
            const text = await res.text();
            let body: unknown = text;
            try {
              body = JSON.parse(text);
            } catch {}
            last = { status: res.status, body, attempts };
          } catch (error) {
            last = { status: 0, body: null, attempts, error: (error as Error & { cause?: Error }).cause?.message ?? String(error) };
          }
          if (!retryable(last.status, last.body)) return last;
          // A key held this long belongs to a request whose process died: its outcome stays unknown
          // (the key is held for minutes), so the request counts as not acknowledged.
          if (last.status === 409) inUseSince ??= Date.now();
          if (inUseSince !== null && Date.now() - inUseSince > IN_USE_PATIENCE_MS) return last;
        }
        if (Date.now() > deadline) return { ...last, attempts };
        await sleep(100 + Math.random() * 200);
      }
    },
  };
}

export type ClusterClient = ReturnType<typeof clusterClient>;

/** A multipart/form-data body with a fixed boundary, so that a retry sends the very same bytes. */
export function multipart(fields: Record<string, string>, file: { name: string; type: string; data: Buffer }) {
  const boundary = `----academy-cluster-${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { contentType: `multipart/form-data; boundary=${boundary}`, data: Buffer.concat(parts) };
}

/**
 * Accepts an invitation as its recipient's browser does, on one API process after another until one
 * answers: opens the page (for the form's CSRF cookie and token), then sends the form with a
 * password. An acceptance is answered 303 (signed in); a connection lost or a 503 tries both steps
 * again on the next process.
 */
export async function acceptInvitation(urls: () => (string | null)[], token: string, password: string, prefer: number): Promise<Outcome> {
  const deadline = Date.now() + 45_000;
  let attempts = 0;
  let last: Outcome = { status: 0, body: null, attempts: 0, error: 'not sent' };
  for (let turn = prefer; ; turn++) {
    const all = urls();
    const base = all[turn % all.length] ?? all.find((u) => u !== null);
    if (base) {
      attempts += 1;
      try {
        const page = await fetch(`${base}/invitations/accept?token=${encodeURIComponent(token)}`, { signal: AbortSignal.timeout(20_000) });
        const html = await page.text();
        const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
        const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
        if (page.status !== 200 || !csrf) {
          last = { status: page.status, body: html.slice(0, 300), attempts };
        } else {
          const res = await fetch(`${base}/invitations/accept`, {
            method: 'POST',
            redirect: 'manual',
            headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
            body: new URLSearchParams({ _csrf: csrf, token, password, password_confirmation: password }).toString(),
            signal: AbortSignal.timeout(20_000),
          });
          last = { status: res.status, body: (await res.text()).slice(0, 300), attempts };
        }
      } catch (error) {
        last = { status: 0, body: null, attempts, error: (error as Error & { cause?: Error }).cause?.message ?? String(error) };
      }
      if (!retryable(last.status, last.body)) return last;
    }
    if (Date.now() > deadline) return { ...last, attempts };
    await sleep(100 + Math.random() * 200);
  }
}
