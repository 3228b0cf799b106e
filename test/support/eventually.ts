export interface EventuallyOptions {
  /** What is awaited, for the timeout message. */
  what?: string;
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Polls `probe` until it returns a value other than `undefined`, `null` or `false`, and returns that
 * value; fails after the timeout with what it was waiting for.
 */
export async function eventually<T>(
  probe: () => Promise<T> | T,
  options: EventuallyOptions = {},
): Promise<Exclude<T, undefined | null | false>> {
  const { what = 'the condition', timeoutMs = 10_000, intervalMs = 25 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value as Exclude<T, undefined | null | false>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
