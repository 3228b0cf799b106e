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

/**
 * What this process reads after a write made over another connection or in another process (its
 * in-memory caches must not hide it). SQLite: the commit moves `data_version`, which the next read
 * looks at, so the first read must show it. PostgreSQL: the commit's notification reaches this
 * process's listening connection a moment after the commit (usually before the writer has returned),
 * so the read is repeated until it shows it.
 */
export async function seenAfterRemoteWrite<T>(
  dialect: 'sqlite' | 'postgres',
  probe: () => Promise<T>,
  what: string,
): Promise<Exclude<T, undefined | null | false>> {
  if (dialect === 'postgres') return eventually(probe, { what, timeoutMs: 5000, intervalMs: 5 });
  const value = await probe();
  if (value === undefined || value === null || value === false) throw new Error(`${what} was not seen at once`);
  return value as Exclude<T, undefined | null | false>;
}
