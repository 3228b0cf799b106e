import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request a piece of work descends from, carried without passing it by hand: set around each
 * HTTP request that may write (not GET or HEAD: reads enqueue nothing) and each job run, read when
 * a job is enqueued (so the job records the id of the request, or of the job, that caused it) and
 * when an outbound delivery is sent. Logs of a POST, of the jobs it queued and of the webhooks those
 * sent share one `requestId`.
 */
const store = new AsyncLocalStorage<{ requestId: string }>();

export function withRequestId<T>(requestId: string | null, work: () => T): T {
  return requestId ? store.run({ requestId }, work) : work();
}

export function currentRequestId(): string | null {
  return store.getStore()?.requestId ?? null;
}
