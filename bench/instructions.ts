// Instructions per request: the hello world, a copy of Academy's answer, and Academy's authenticated
// GET /api/v1/organization (SQLite and PostgreSQL), each server run under valgrind's callgrind and
// counted over a window of wrk load on one connection. Unlike requests or CPU time per second, a count
// of instructions does not move with whatever else the machine is doing: two runs of one build differ
// by a few per cent (how many young-generation collections fell in the window), so a change of the
// request path can be told apart from the machine's noise (ADR 0013).
import { type ChildProcess, execFile, execFileSync, fork } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchDialect, benchDialects } from './datasets.ts';
import { prepareDemo, type Recorded, record, SERVER_FLAGS, startServer, stop } from './http.ts';
import type { BenchRow } from './report.ts';
import { ensureWrk, installFromDebian, runWrk } from './wrk.ts';

const log = (text: string) => console.error(`[instructions] ${text}`);

/**
 * Seconds of load before counting starts (BENCH_CALLGRIND_WARMUP, 62) and counted
 * (BENCH_CALLGRIND_SECONDS, 15). The caches' age bound (CACHE_MAX_AGE_MS, 30 s) sends one request
 * every 30 s down the path that reloads the token and the answer, which the optimized code has not
 * seen, and V8, a hundred times slower under valgrind, takes seconds to optimize it again. With the
 * first request at 0 s, those reloads come at about 30, 60 and 90 s: the defaults put the 10 idle
 * seconds at 62–72 s and the counted load at 72–87 s, between two of them.
 */
function seconds(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 1) throw new Error(`${name} must be a number of seconds ≥ 1`);
  return value;
}

function valgrindAvailable(): boolean {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function callgrindControl(pid: number, ...args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('callgrind_control', [...args, String(pid)], (error, _stdout, stderr) =>
      error ? reject(new Error(`callgrind_control ${args.join(' ')}: ${stderr || error.message}`)) : resolve(),
    );
  });
}

/** Seconds of load before the count, and counted. */
interface Windows {
  warmup: number;
  counted: number;
}

/** BENCH_CALLGRIND_WARMUP and BENCH_CALLGRIND_SECONDS, checked (`npm run bench` reads them before any suite runs). */
export function callgrindWindows(): Windows {
  return { warmup: seconds('BENCH_CALLGRIND_WARMUP', 62), counted: seconds('BENCH_CALLGRIND_SECONDS', 15) };
}

interface Counted {
  requests: number;
  /** Instructions per request on the main thread, which serves the requests, less its idle work. */
  main: number;
  /** The same in all of the process's threads (the collector's and libuv's helpers too). */
  all: number;
  /** What the main thread did per request's worth of time while idle (timers), subtracted from `main`. */
  idle: number;
}

/** Seconds of the idle window, whose count is the process's own work without requests (its timers). */
const IDLE_SECONDS = 10;

/** The instructions of one callgrind dump (its number `dump`): the main thread's and all threads'. */
function dumped(dir: string, dump: number): { main: number; all: number } {
  let main = 0;
  let all = 0;
  for (const file of readdirSync(dir).filter((f) => new RegExp(`^callgrind\\.\\d+\\.${dump}-\\d+$`).test(f))) {
    const totals = [...readFileSync(path.join(dir, file), 'utf8').matchAll(/^totals: (\d+)$/gm)].at(-1);
    const instructions = Number(totals?.[1] ?? 0);
    all += instructions;
    if (file.endsWith('-01')) main += instructions;
  }
  return { main, all };
}

/**
 * Starts a benchmark server script under callgrind, with counting off; loads it with wrk on one
 * connection for the warm-up (the JIT compiles the hot paths meanwhile), then counts an idle window
 * and a loaded one. Under valgrind a request takes a hundred times longer than without, so the
 * process's own timers (metrics, pools, flushes), which run per second and not per request, would
 * weigh on each request a hundred times more than they do: their rate, from the idle window, is
 * taken off the loaded window's count before it is divided by the requests made in it.
 */
/** Where a counted server comes from, and what is asked of it. */
interface CountOptions {
  /** The first request's answer, for replay.ts. */
  first?: Recorded;
  /** Another checkout of Academy (BENCH_COMPARE): its bench script is run instead of this one's. */
  checkout?: string;
  /** The path to load, found on the running server (untimed) instead of the URL it announces. */
  locate?: (base: string, headers: Record<string, string>) => Promise<string>;
}

async function count(name: string, env: Record<string, string>, windows: Windows, options: CountOptions = {}): Promise<Counted> {
  const dir = mkdtempSync(path.join(tmpdir(), 'academy-callgrind-'));
  let child: ChildProcess | undefined;
  const script = options.checkout ? path.join(options.checkout, 'bench', name) : fileURLToPath(new URL(name, import.meta.url));
  try {
    child = fork(script, [], {
      execPath: 'valgrind',
      execArgv: [
        '--tool=callgrind',
        '--instr-atstart=no',
        '--separate-threads=yes',
        `--callgrind-out-file=${dir}/callgrind.%p`,
        `--log-file=${dir}/valgrind.log`,
        process.execPath,
        ...SERVER_FLAGS,
      ],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const started = child;
    const ready = new Promise<{ url: string; base?: string; token?: string }>((resolve, reject) => {
      started.once('message', (message) => resolve(message as { url: string; base?: string; token?: string }));
      started.once('exit', (code) => reject(new Error(`${name} exited under valgrind (code ${code}); see ${dir}/valgrind.log`)));
    });
    if (options.first) child.send(options.first);
    const announced = await ready;
    const headers: Record<string, string> = announced.token ? { authorization: `Bearer ${announced.token}` } : {};
    const url = options.locate && announced.base ? `${announced.base}${await options.locate(announced.base, headers)}` : announced.url;
    const job = { url, headers, connections: 1 };
    await runWrk({ ...job, durationSeconds: windows.warmup }, 1);
    const pid = child.pid as number;
    // Dumps are of what was counted since the one before: dump 1 the idle window, dump 2 the loaded one.
    await callgrindControl(pid, '--instr=on');
    let began = performance.now();
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    await callgrindControl(pid, '--dump');
    const idleMs = performance.now() - began;
    began = performance.now();
    const counted = await runWrk({ ...job, durationSeconds: windows.counted }, 1);
    await callgrindControl(pid, '--dump');
    const loadedMs = performance.now() - began;
    await callgrindControl(pid, '--instr=off');
    if (counted.total === 0 || counted.non2xx + counted.errors > 0) {
      throw new Error(
        `${name} under valgrind answered ${counted.total} requests, ${counted.non2xx + counted.errors} of them not 2xx or failed`,
      );
    }
    const idle = dumped(dir, 1);
    const loaded = dumped(dir, 2);
    if (loaded.main === 0) throw new Error(`callgrind counted no instructions of ${name} (files in ${dir})`);
    const scale = loadedMs / idleMs / counted.total;
    return {
      requests: counted.total,
      main: loaded.main / counted.total - idle.main * scale,
      all: loaded.all / counted.total - idle.all * scale,
      idle: idle.main * scale,
    };
  } finally {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

const thousands = (n: number) => `${(n / 1000).toFixed(1)}k`;

/** The hello world's instructions over a target's: the ratio of their requests per second were both limited by their main thread alone. */
function countedRow(target: string, counted: Counted, hello?: Counted, note = ''): BenchRow {
  return {
    suite: 'instructions',
    target,
    instructions: Math.round(counted.main),
    ...(hello ? { ratio: hello.main / counted.main } : {}),
    note: `${thousands(counted.main)} instructions per request on the main thread, ${thousands(counted.all)} in all threads; ${counted.requests} requests counted; its idle work, ${thousands(counted.idle)} per request's worth of time, taken off${note}`,
  };
}

export async function instructionsBench(): Promise<BenchRow[]> {
  const windows = callgrindWindows();
  if (!valgrindAvailable() && !(installFromDebian('valgrind', log) && valgrindAvailable())) {
    return [{ suite: 'instructions', target: 'instructions', note: 'skipped: valgrind is not installed (apt-get install valgrind)' }];
  }
  if (!(await ensureWrk(log))) {
    return [{ suite: 'instructions', target: 'instructions', note: 'skipped: wrk is not installed (apt-get install wrk)' }];
  }
  const { dialects, skipped } = await benchDialects('instructions');
  const rows: BenchRow[] = [];
  log('hello world under callgrind');
  const hello = await count('hello.ts', {}, windows);
  const baseline = countedRow('fastify hello world (baseline)', hello);
  baseline.note = `${baseline.note}; "vs baseline" is the hello world's count over each target's, the ratio of requests per second were the main thread all that limits them`;
  rows.push(baseline);
  for (const dialect of dialects) {
    const database = await prepareDemo(dialect as BenchDialect);
    try {
      if (dialect === dialects[0]) {
        // The copy of the answer, with every header field, recorded from a server started as usual.
        const server = await startServer<{ url: string; token: string }>('app-server.ts', SERVER_FLAGS, {
          BENCH_DATABASE_URL: database.url,
          BENCH_DATA_DIR: database.dataDir,
        });
        let recorded: Recorded;
        try {
          recorded = await record(server.ready.url, { authorization: `Bearer ${server.ready.token}` });
        } finally {
          await stop(server.child);
        }
        log('a copy of the answer under callgrind');
        const copy = await count('replay.ts', {}, windows, { first: recorded });
        rows.push(
          countedRow(
            'fastify sending a copy of the answer (no work)',
            copy,
            hello,
            `; its header fields: ${Object.keys(recorded.headers).join(', ')}`,
          ),
        );
      }
      log(`GET /organization on ${dialect} under callgrind`);
      const academy = await count('app-server.ts', { BENCH_DATABASE_URL: database.url, BENCH_DATA_DIR: database.dataDir }, windows);
      // Under valgrind requests come more than a millisecond apart, and SQLite's data_version, read at
      // most once a millisecond under load, is then read for every request (src/platform/changes.ts).
      const note =
        dialect === 'sqlite'
          ? "; under valgrind requests are over a millisecond apart, so SQLite's data_version (read at most once a millisecond) is read for every one"
          : '';
      rows.push(countedRow(`GET /api/v1/organization (token, ${dialect})`, academy, hello, note));
      if (dialect === 'sqlite') {
        log('the session read on sqlite under callgrind');
        const session = await count('app-server.ts', {}, windows, { locate: sessionPath });
        rows.push(countedRow('GET /api/v1/courses/{course}/sessions/{session} (token, sqlite, demo data)', session, hello, note));
        const other = compareCheckout();
        if (other) {
          // The same two reads served by another build (each over its own demo data), counted alike.
          log(`the same reads from ${other.label} under callgrind`);
          const organization = await count('app-server.ts', {}, windows, { checkout: other.dir });
          rows.push(countedRow(`GET /api/v1/organization (token, sqlite, ${other.label})`, organization, hello, note));
          const otherSession = await count('app-server.ts', {}, windows, { checkout: other.dir, locate: sessionPath });
          rows.push(
            countedRow(`GET /api/v1/courses/{course}/sessions/{session} (token, sqlite, ${other.label})`, otherSession, hello, note),
          );
        }
      }
    } finally {
      await database.drop();
    }
  }
  return [...rows, ...skipped.map((row) => ({ ...row, suite: 'instructions' }))];
}

/** The first session of the first course that has one, as the API lists them (the demo data's). */
async function sessionPath(base: string, headers: Record<string, string>): Promise<string> {
  const courses = (await (await fetch(`${base}/api/v1/courses?per_page=100`, { headers })).json()) as { data: { slug: string }[] };
  for (const { slug } of courses.data) {
    const sessions = (await (await fetch(`${base}/api/v1/courses/${slug}/sessions`, { headers })).json()) as { data?: { id: number }[] };
    const first = sessions.data?.[0];
    if (first) return `/api/v1/courses/${slug}/sessions/${first.id}`;
  }
  throw new Error('no course of the demo data has a session');
}

/**
 * BENCH_COMPARE: another checkout of Academy (a directory with its own `bench/` and `node_modules`),
 * whose server is counted beside this one's: a change of the request path, told apart from noise.
 */
function compareCheckout(): { dir: string; label: string } | null {
  const dir = process.env.BENCH_COMPARE;
  if (!dir) return null;
  let label = path.basename(dir);
  try {
    label = `build ${execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()}`;
  } catch {}
  return { dir: path.resolve(dir), label };
}
