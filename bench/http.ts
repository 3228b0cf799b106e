// HTTP throughput: a bare Fastify server (the baseline) against Academy's authenticated
// GET /api/v1/organization, on SQLite and PostgreSQL, with one and with two API processes sharing the
// port, each with autocannon and wrk (BENCH_TOOL). Servers and the load generator each run in their
// own process.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import pino from 'pino';
import { assemble } from '../src/assembly/modules.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { seedDemo } from '../src/modules/demo/seed.ts';
import { type BenchDialect, benchDialects, benchSecretKey, postgresAdminUrl } from './datasets.ts';
import type { LoadJob, LoadResult } from './load.ts';
import { SERVER_FLAGS } from './node-flags.ts';
import type { BenchRow } from './report.ts';
import { loadTools, runWrk } from './wrk.ts';

export { SERVER_FLAGS };

export const CONNECTIONS = 32;
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
 * CPU time (user and system) that processes have used so far, in microseconds, from Linux's
 * /proc/PID/stat (in clock ticks of 1/100 s); null where there is no /proc.
 */
function cpuMicroseconds(pids: readonly number[]): number | null {
  try {
    let ticks = 0;
    for (const pid of pids) {
      // The fields after the command name, which is in parentheses and may hold spaces.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // utime and stime: the 14th and 15th fields, the 12th and 13th after the command name.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return Number.isFinite(ticks) ? ticks * 10_000 : null;
  } catch {
    return null;
  }
}

export interface Measured extends LoadResult {
  /** The servers' CPU time per request in the measured window (µs), when their process ids were given and /proc is there. */
  cpuUsPerRequest?: number;
}

/**
 * Load of CONNECTIONS connections on one URL for `durationSeconds`, after a short warm-up that lets V8
 * optimise the hot paths and fills connection pools and caches: by autocannon (in a process of its
 * own) or by wrk. With the servers' process ids, also the CPU time they spent per request: a figure
 * that moves far less than requests per second when the machine's other work comes and goes.
 */
export async function measure(
  job: Omit<LoadJob, 'connections' | 'durationSeconds'>,
  durationSeconds: number,
  tool: LoadTool = 'autocannon',
  pids: readonly number[] = [],
): Promise<Measured> {
  const run = tool === 'wrk' ? runWrk : load;
  await run({ ...job, connections: CONNECTIONS, durationSeconds: WARMUP_SECONDS });
  const before = pids.length ? cpuMicroseconds(pids) : null;
  const result: Measured = await run({ ...job, connections: CONNECTIONS, durationSeconds });
  const after = before === null ? null : cpuMicroseconds(pids);
  if (before !== null && after !== null && result.total > 0) result.cpuUsPerRequest = (after - before) / result.total;
  return result;
}

/** A note's words for the servers' CPU per request, or nothing when it was not measured. */
export function cpuNote(result: Measured): string {
  return result.cpuUsPerRequest === undefined ? '' : `; server CPU ${result.cpuUsPerRequest.toFixed(1)} µs per request`;
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

/** Seconds of measured load per target: BENCH_DURATION for autocannon, BENCH_WRK_DURATION for wrk (30 each). */
export function durationOf(tool: LoadTool): number {
  const [name, fallback] = tool === 'wrk' ? ['BENCH_WRK_DURATION', 30] : ['BENCH_DURATION', 30];
  const seconds = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(seconds) || seconds < 1) throw new Error(`${name} must be a number of seconds ≥ 1`);
  return seconds;
}

/**
 * Alternating rounds per target of the http suite (BENCH_ROUNDS, 1 by default): the target and a hello
 * world take turns that many times, and the row shows the round with the median ratio.
 */
export function roundsOf(): number {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('BENCH_ROUNDS must be a whole number ≥ 1');
  return rounds;
}

/** One turn of a target between two hello worlds, and its ratio to their mean. */
interface Round {
  result: Measured;
  before: Measured;
  after: Measured;
  ratio: number;
}

/** The round with the median ratio; of an even number, the lower of the two in the middle. */
function medianRound(rounds: readonly Round[]): Round {
  const sorted = [...rounds].sort((a, b) => a.ratio - b.ratio);
  return sorted[Math.floor((sorted.length - 1) / 2)] as Round;
}

export interface Recorded {
  body: string;
  headers: Record<string, string>;
}

/** Fields of a response that Node.js or Fastify set on every response themselves, which a copy leaves to them. */
const SET_BY_THE_SERVER = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/**
 * One response of `url` as a load generator gets it (no compression asked for): its body and every
 * header field a copy of it should carry too.
 */
export async function record(url: string, headers: Record<string, string>): Promise<Recorded> {
  const sample = await fetch(url, { headers: { ...headers, 'accept-encoding': 'identity' } });
  if (sample.status !== 200) throw new Error(`${url} answered ${sample.status}: ${await sample.text()}`);
  if (sample.headers.has('content-encoding')) throw new Error(`${url} answered compressed although no compression was asked for`);
  return {
    body: await sample.text(),
    headers: Object.fromEntries([...sample.headers].filter(([name]) => !SET_BY_THE_SERVER.has(name))),
  };
}

/** Load on a bare Fastify server that sends a copy of `recorded`: the cost of those bytes alone. */
export async function replay(recorded: Recorded, durationSeconds: number, tool: LoadTool = 'autocannon'): Promise<LoadResult> {
  // With the servers' Node.js flags, like for like.
  const child = fork(script('replay.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: SERVER_FLAGS });
  try {
    const ready = new Promise<{ url: string }>((resolve) => child.once('message', (m) => resolve(m as { url: string })));
    child.send(recorded);
    return await measure({ url: (await ready).url }, durationSeconds, tool);
  } finally {
    await stop(child);
  }
}

/** A port that was free a moment ago, for servers that must share one (BENCH_REUSE_PORT). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Prepared {
  url: string;
  dataDir: string;
  drop(): Promise<void>;
}

/** A migrated database with the demo academy, shared by the servers of one measurement. */
export async function prepareDemo(dialect: BenchDialect): Promise<Prepared> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'academy-bench-http-'));
  let url = `sqlite:${path.join(dataDir, 'academy.db')}`;
  let dropDatabase = async () => {};
  if (dialect === 'postgres') {
    const name = `academy_bench_http_${process.pid}`;
    const admin = async (statement: string) => {
      const client = new pg.Client({ connectionString: postgresAdminUrl });
      await client.connect();
      try {
        await client.query(statement);
      } finally {
        await client.end();
      }
    };
    await admin(`drop database if exists ${name} with (force)`);
    await admin(`create database ${name}`);
    const target = new URL(postgresAdminUrl);
    target.pathname = `/${name}`;
    url = target.toString();
    dropDatabase = () => admin(`drop database if exists ${name} with (force)`);
  }
  const { platform, services } = assemble(loadConfig({ DATABASE_URL: url, ACADEMY_DATA_DIR: dataDir, ...benchSecretKey }), {
    logger: pino({ level: 'warn' }),
  });
  await migrate(platform.database);
  await seedDemo(platform, services);
  await platform.close();
  return {
    url,
    dataDir,
    drop: async () => {
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * `processes` Academy servers over one database, sharing one port (SO_REUSEPORT, as
 * ACADEMY_REUSE_PORT does), so that the same load spreads over them.
 */
async function academyServers(database: Prepared, processes: number) {
  return serversOnOnePort({ BENCH_DATABASE_URL: database.url, BENCH_DATA_DIR: database.dataDir }, processes);
}

/** What a benchmark server (bench/app-server.ts) sends when it is ready. */
interface AcademyReady {
  url: string;
  base: string;
  token: string;
}

/**
 * `processes` benchmark servers (bench/app-server.ts, with `env`; or another server script, whose
 * ready message is `T`) listening on one port with SO_REUSEPORT, as `ACADEMY_REUSE_PORT` lets
 * `academy serve` do; the kernel spreads connections over them. `ready` is the first one's message.
 */
export async function serversOnOnePort<T = AcademyReady>(env: Record<string, string>, processes: number, name = 'app-server.ts') {
  const port = String(await freePort());
  const servers: Awaited<ReturnType<typeof startServer<T>>>[] = [];
  for (let i = 0; i < processes; i++) {
    servers.push(
      await startServer<T>(name, SERVER_FLAGS, {
        ...env,
        BENCH_PORT: port,
        BENCH_REUSE_PORT: '1',
      }),
    );
  }
  return {
    ready: servers[0]?.ready as T,
    pids: servers.map((server) => server.child.pid as number),
    stop: () => Promise.all(servers.map((server) => stop(server.child))),
  };
}

const log = (text: string) => console.error(`[http] ${text}`);

/** The targets of issue-level reviews: at least 60% of the baseline, p99 under 10 ms. */
const RATIO_TARGET = 0.6;
const P99_TARGET_MS = 10;

export async function httpBench(): Promise<BenchRow[]> {
  const rounds = roundsOf();
  const tools = await loadTools(log);
  const { dialects, skipped } = await benchDialects('http');
  const rows: BenchRow[] = [...skipped];
  const databases = new Map<BenchDialect, Prepared>();
  for (const dialect of dialects) databases.set(dialect, await prepareDemo(dialect));
  try {
    for (const tool of tools) {
      const seconds = durationOf(tool);
      // The baseline runs with the same Node.js flags as Academy's servers, and stays up (idle
      // between its windows): each target is compared with the mean of the hello worlds measured just
      // before and just after it, as this machine's rate drifts by a fifth from one minute to the next.
      const hello = await startServer<{ url: string }>('hello.ts', SERVER_FLAGS);
      try {
        const helloPids = [hello.child.pid as number];
        const helloWindow = (when: string) => {
          log(`hello world (${when}): ${tool}, ${seconds} s`);
          return measure({ url: hello.ready.url }, seconds, tool, helloPids);
        };
        let last = await helloWindow('baseline');
        const first = row(`fastify hello world (baseline, ${tool})`, last);
        first.note = `${first.note}, ${tool} ${seconds} s; each target is compared with the mean of the hello worlds measured just before and just after it${cpuNote(last)}`;
        rows.push(first);
        let recorded: Recorded | null = null;
        for (const [dialect, database] of databases) {
          for (const processes of [1, 2]) {
            const servers = await academyServers(database, processes);
            let measured: { rps: number; adjacent: number } | undefined;
            try {
              const auth = { authorization: `Bearer ${servers.ready.token}` };
              recorded ??= await record(servers.ready.url, auth);
              const turns: Round[] = [];
              for (let turn = 1; turn <= rounds; turn++) {
                const of = rounds > 1 ? `, round ${turn} of ${rounds}` : '';
                log(`GET /organization on ${dialect}, ${processes} process(es): ${tool}, ${seconds} s${of}`);
                const before = last;
                const result = await measure({ url: servers.ready.url, headers: auth }, seconds, tool, servers.pids);
                last = await helloWindow('after the target');
                turns.push({ result, before, after: last, ratio: (2 * result.rps) / (before.rps + last.rps) });
              }
              const { result, before, after } = medianRound(turns);
              const adjacent = (before.rps + after.rps) / 2;
              const line = row(
                `GET /api/v1/organization (token, ${dialect}, ${processes} process${processes > 1 ? 'es' : ''}, ${tool})`,
                result,
                adjacent,
              );
              const ratioMet = result.rps >= RATIO_TARGET * adjacent;
              const p99Met = result.p99Ms < P99_TARGET_MS;
              // CPU per request against the hello world's: what the ratio would be were the server's
              // CPU all that limits it, steadier than requests per second on a busy machine.
              const helloCpu =
                before.cpuUsPerRequest && after.cpuUsPerRequest ? (before.cpuUsPerRequest + after.cpuUsPerRequest) / 2 : undefined;
              const cpu =
                helloCpu && result.cpuUsPerRequest
                  ? `; server CPU ${result.cpuUsPerRequest.toFixed(1)} µs per request against the hello world's ${helloCpu.toFixed(1)} (${((100 * helloCpu) / result.cpuUsPerRequest).toFixed(0)}%)`
                  : '';
              const all =
                turns.length > 1
                  ? `; the median of ${turns.length} alternating rounds, whose ratios and p99s were ${turns
                      .map((turn) => `${(100 * turn.ratio).toFixed(0)}% (${turn.result.p99Ms} ms)`)
                      .join(', ')}`
                  : '';
              line.note = `${line.note}; hello world before and after: ${Math.round(before.rps)} and ${Math.round(after.rps)} requests/s; ≥ ${RATIO_TARGET * 100}% of their mean ${ratioMet ? 'met' : 'MISSED'}; p99 < ${P99_TARGET_MS} ms ${p99Met ? 'met' : 'MISSED'}${cpu}${all}`;
              rows.push(line);
              measured = { rps: result.rps, adjacent };
            } finally {
              await servers.stop();
            }
            if (processes > 1 && measured) {
              // Like for like, once Academy's servers are gone: as many hello worlds on one port, under
              // the same load generator, which on two cores competes with them for the CPU.
              const hellos = await serversOnOnePort<{ url: string }>({}, processes, 'hello.ts');
              try {
                log(`${processes} hello worlds on one port: ${tool}, ${seconds} s`);
                const pair = await measure({ url: hellos.ready.url }, seconds, tool, hellos.pids);
                const like = row(`  ${processes} hello worlds on one port (${tool})`, pair, measured.adjacent);
                like.note = `${like.note}; measured after the row above; Academy's ${processes} processes reach ${((100 * measured.rps) / pair.rps).toFixed(0)}% of these${cpuNote(pair)}`;
                rows.push(like);
              } finally {
                await hellos.stop();
              }
              // The next target's hello world before it is measured now, not before these two.
              last = await helloWindow('before the next target');
            }
          }
        }
        if (recorded) {
          const copy = await replay(recorded, seconds, tool);
          const adjacent = (last.rps + (await helloWindow('after the copy')).rps) / 2;
          const ceiling = row(`fastify sending a copy of that response (no work, ${tool})`, copy, adjacent);
          ceiling.note = `${ceiling.note}; compared with the mean of the hello worlds just before and after it`;
          rows.push(ceiling);
        }
      } finally {
        await stop(hello.child);
      }
    }
  } finally {
    for (const database of databases.values()) await database.drop();
  }
  return rows;
}
