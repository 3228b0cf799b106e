// HTTP throughput: a bare Fastify server (the baseline) against Academy's authenticated
// GET /api/v1/organization. Servers and the load generator each run in their own process.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadJob, LoadResult } from './load.ts';
import type { BenchRow } from './report.ts';
import { runWrk } from './wrk.ts';

export const CONNECTIONS = 32;
/** The Node.js flags the `academy` command runs with (ADR 0006, ADR 0011): benchmark servers use the same. */
export const SERVER_FLAGS = ['--single-threaded-gc', '--max-semi-space-size=2'];
const WARMUP_SECONDS = 3;

function script(name: string): string {
  return fileURLToPath(new URL(name, import.meta.url));
}

/** Starts a server script and waits for the first message it sends (its URL, and for Academy a token). */
export async function startServer<T>(
  name: string,
  execArgv: string[] = [],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; ready: T }> {
  const child = fork(script(name), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv, env: { ...process.env, ...env } });
  const ready = await new Promise<T>((resolve, reject) => {
    child.once('message', (message) => resolve(message as T));
    child.once('exit', (code) => reject(new Error(`${name} exited (code ${code}) before it was ready`)));
  });
  return { child, ready };
}

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.disconnect();
    // A server that does not stop on its own within 5 s is not worth waiting for.
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

function load(job: LoadJob): Promise<LoadResult> {
  const child = fork(script('load.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as LoadResult));
    child.once('exit', (code) => reject(new Error(`the load generator exited (code ${code}) without a result`)));
    child.send(job);
  });
}

export type LoadTool = 'autocannon' | 'wrk';

/**
 * Load of CONNECTIONS connections on one URL for `durationSeconds`, after a short warm-up that lets V8
 * optimise the hot paths and fills connection pools and caches: by autocannon (in a process of its
 * own) or by wrk.
 */
export async function measure(
  job: Omit<LoadJob, 'connections' | 'durationSeconds'>,
  durationSeconds: number,
  tool: LoadTool = 'autocannon',
): Promise<LoadResult> {
  const run = tool === 'wrk' ? runWrk : load;
  await run({ ...job, connections: CONNECTIONS, durationSeconds: WARMUP_SECONDS });
  return run({ ...job, connections: CONNECTIONS, durationSeconds });
}

export function row(target: string, result: LoadResult, baselineRps?: number, suite = 'http'): BenchRow {
  const failures = result.non2xx + result.errors + result.timeouts;
  return {
    suite,
    target,
    rps: result.rps,
    p50Ms: result.p50Ms,
    p99Ms: result.p99Ms,
    ...(baselineRps ? { ratio: result.rps / baselineRps } : {}),
    note: failures ? `${failures} of ${result.total} responses were not 2xx or failed` : `${CONNECTIONS} connections`,
  };
}

/** Seconds of measured load per target: BENCH_DURATION for autocannon (10), BENCH_WRK_DURATION for wrk (30). */
export function durationOf(tool: LoadTool): number {
  const [name, fallback] = tool === 'wrk' ? ['BENCH_WRK_DURATION', 30] : ['BENCH_DURATION', 10];
  const seconds = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(seconds) || seconds < 1) throw new Error(`${name} must be a number of seconds ≥ 1`);
  return seconds;
}

export interface Recorded {
  body: string;
  headers: Record<string, string>;
}

/** One response of `url`: its body and the headers that a copy of it should carry too. */
export async function record(url: string, headers: Record<string, string>): Promise<Recorded> {
  const sample = await fetch(url, { headers });
  if (sample.status !== 200) throw new Error(`${url} answered ${sample.status}: ${await sample.text()}`);
  const kept = [
    'content-type',
    'x-request-id',
    'ratelimit-policy',
    'ratelimit',
    'x-ratelimit-limit',
    'x-ratelimit-remaining',
    'etag',
    'link',
  ];
  return {
    body: await sample.text(),
    headers: Object.fromEntries(kept.flatMap((name) => (sample.headers.has(name) ? [[name, sample.headers.get(name) as string]] : []))),
  };
}

/** Load on a bare Fastify server that sends a copy of `recorded`: the cost of those bytes alone. */
export async function replay(recorded: Recorded, durationSeconds: number, tool: LoadTool = 'autocannon'): Promise<LoadResult> {
  const child = fork(script('replay.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const ready = new Promise<{ url: string }>((resolve) => child.once('message', (m) => resolve(m as { url: string })));
    child.send(recorded);
    return await measure({ url: (await ready).url }, durationSeconds, tool);
  } finally {
    await stop(child);
  }
}

export async function httpBench(): Promise<BenchRow[]> {
  const durationSeconds = durationOf('autocannon');

  const hello = await startServer<{ url: string }>('hello.ts');
  let baseline: LoadResult;
  try {
    baseline = await measure({ url: hello.ready.url }, durationSeconds);
  } finally {
    await stop(hello.child);
  }

  // Academy runs with the V8 flags its `academy` command and `npm start` use (docs/decisions/0006).
  const academy = await startServer<{ url: string; token: string }>('app-server.ts', SERVER_FLAGS);
  let organization: LoadResult;
  let recorded: Recorded;
  try {
    const auth = { authorization: `Bearer ${academy.ready.token}` };
    recorded = await record(academy.ready.url, auth);
    organization = await measure({ url: academy.ready.url, headers: auth }, durationSeconds);
  } finally {
    await stop(academy.child);
  }

  const copy = await replay(recorded, durationSeconds);

  const ceiling = row('fastify sending a copy of that response (no work)', copy, baseline.rps);
  ceiling.note = `${ceiling.note}; Academy reaches ${((100 * organization.rps) / copy.rps).toFixed(0)}% of this`;
  return [
    row('fastify hello world (baseline)', baseline),
    row('GET /api/v1/organization (token, SQLite)', organization, baseline.rps),
    ceiling,
  ];
}
