// Soak: `academy serve` (API and worker in one process, with the Node.js flags of the `academy`
// command, as deployed) over a fresh demo database, under a mixed
// workload for SOAK_MINUTES (10), with the server's own memory read from /metrics every second.
//
//   npm run soak                      10 minutes
//   SOAK_MINUTES=4 SOAK_CONCURRENCY=4 npm run soak
//
// Each minute it prints requests, failures, p99 latency, mean RSS and mean V8 heap used. The verdict
// compares low-water marks, what the process keeps after garbage collection (a mean follows the GC
// sawtooth and the load of the moment): memory is flat when, after a first minute of warm-up, the
// lowest heap used and the lowest RSS sampled in the last two minutes are at most SOAK_TOLERANCE
// (15 %) above those of minutes 2-3, or within an absolute floor (heap 16 MB, RSS 32 MB) that keeps
// a small process's ordinary noise from counting as growth. A run of fewer than 4 minutes gives no
// verdict. Exits 1 when memory grew or a request failed with a 5xx. Results go to .bench/soak.json.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVER_FLAGS } from './node-flags.ts';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 6);
const TOLERANCE = Number(process.env.SOAK_TOLERANCE ?? 0.15);
const HEAP_FLOOR_MB = 16;
const RSS_FLOOR_MB = 32;
const MB = 1024 * 1024;
const root = path.resolve(import.meta.dirname, '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startServer(): Promise<{ child: ChildProcess; base: string; token: string; dataDir: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'academy-soak-'));
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVER_FLAGS, path.join(root, 'bin/academy.js'), 'serve', '--demo'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${path.join(dataDir, 'academy.db')}`,
      ACADEMY_DATA_DIR: dataDir,
      ACADEMY_RATE_LIMIT_PER_MINUTE: '100000000',
      ACADEMY_ACCESS_LOG: 'false',
      LOG_LEVEL: 'warn',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`academy serve exited (${child.exitCode}):\n${stderr}`);
    try {
      const ready = await fetch(`${base}/readyz`);
      if (ready.ok) {
        const token = readFileSync(path.join(dataDir, 'demo-token'), 'utf8').trim();
        return { child, base, token, dataDir };
      }
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  child.kill('SIGTERM');
  throw new Error(`academy serve did not become ready in 120 s:\n${stderr}`);
}

interface Sample {
  second: number;
  rssBytes: number;
  heapUsedBytes: number;
}

function metric(text: string, name: string): number {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text);
  if (!match) throw new Error(`/metrics has no ${name}`);
  return Number(match[1]);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);

const { child, base, token, dataDir } = await startServer();
const api = `${base}/api/v1`;
const auth = { authorization: `Bearer ${token}` };
const json = { ...auth, 'content-type': 'application/json' };
const list = async <T>(url: string): Promise<T[]> => {
  const response = await fetch(`${api}${url}`, { headers: auth });
  return ((await response.json()) as { data: T[] }).data;
};

// What the workload reads: ids and slugs of the demo academy.
const courses = (await list<{ slug: string }>('/courses?per_page=100')).map((c) => c.slug);
const students = (await list<{ id: number }>('/students?per_page=100')).map((s) => s.id);
const enrolments = (await list<{ id: number }>('/enrolments?per_page=100')).map((e) => e.id);
const pick = <T>(values: T[]): T => values[Math.floor(Math.random() * values.length)] as T;
const WORDS = ['project', 'safety', 'excel', 'lead', 'first', 'data', 'smith', 'ann', 'cert'];
let created = 0;

type Step = () => Promise<number>;
const call = async (method: string, url: string, body?: unknown): Promise<number> => {
  const response = await fetch(
    `${api}${url}`,
    body === undefined ? { method, headers: auth } : { method, headers: json, body: JSON.stringify(body) },
  );
  await response.arrayBuffer();
  return response.status;
};

/** The mixed workload: mostly reads, with writes, searches and report requests among them. */
const steps: [number, string, Step][] = [
  [14, 'list courses', () => call('GET', `/courses?per_page=${pick([15, 50, 100])}`)],
  [10, 'list students', () => call('GET', `/students?per_page=50&page=${pick([1, 2, 3])}&sort=${pick(['name', 'email', 'id'])}`)],
  [10, 'list enrolments', () => call('GET', `/enrolments?per_page=50&page=${pick([1, 2, 3, 4])}`)],
  [6, 'list users', () => call('GET', '/users?per_page=50')],
  [4, 'list certificates', () => call('GET', '/certificates?per_page=25')],
  [8, 'list sessions', () => call('GET', `/courses/${pick(courses)}/sessions`)],
  [8, 'get course', () => call('GET', `/courses/${pick(courses)}`)],
  [8, 'get student', () => call('GET', `/students/${pick(students)}`)],
  [8, 'get enrolment', () => call('GET', `/enrolments/${pick(enrolments)}`)],
  [8, 'search', () => call('GET', `/search?q=${pick(WORDS)}`)],
  [
    4,
    'patch organization',
    () => call('PATCH', '/organization', { phone: `+44 20 7946 ${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}` }),
  ],
  [
    3,
    'create and move a user',
    async () => {
      created += 1;
      const response = await fetch(`${api}/users`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: `Soak User ${created}`, email: `soak.${process.pid}.${created}@example.org` }),
      });
      const { data } = (await response.json()) as { data: { id: number } };
      if (response.status !== 201) return response.status;
      // The moves the API offers a new user (activation is the invitation's acceptance, outside the API).
      for (const move of ['invite', 'archive']) {
        const status = await call('POST', `/users/${data.id}/${move}`);
        if (status >= 400) return status;
      }
      return 201;
    },
  ],
  [
    1,
    'request a report',
    () => call('POST', '/reports', { type: pick(['enrolments', 'completions', 'session_capacity']), format: pick(['csv', 'xlsx']) }),
  ],
  [2, 'list reports', () => call('GET', '/reports?per_page=15')],
];
const totalWeight = steps.reduce((sum, [weight]) => sum + weight, 0);
function nextStep(): [string, Step] {
  let roll = Math.random() * totalWeight;
  for (const [weight, name, step] of steps) {
    roll -= weight;
    if (roll < 0) return [name, step];
  }
  const [, name, step] = steps[0] as [number, string, Step];
  return [name, step];
}

interface StepMinute {
  requests: number;
  meanMs: number;
  p99Ms: number;
}

interface Minute {
  minute: number;
  /** Each step's requests and latency in this minute, to tell which one slows down when the rate falls. */
  steps: Record<string, StepMinute>;
  requests: number;
  failures: number;
  serverErrors: number;
  p50Ms: number;
  p99Ms: number;
  rssMb: number;
  heapUsedMb: number;
}

const started = Date.now();
const endAt = started + MINUTES * 60_000;
const samples: Sample[] = [];
const minutes: Minute[] = [];
let latencies: number[] = [];
let stepLatencies = new Map<string, number[]>();
let requests = 0;
let failures = 0;
let serverErrors = 0;
let totalRequests = 0;
let totalServerErrors = 0;
const failuresByStep = new Map<string, number>();

async function worker(): Promise<void> {
  while (Date.now() < endAt) {
    const [name, step] = nextStep();
    const t0 = performance.now();
    let status: number;
    try {
      status = await step();
    } catch {
      status = 0;
    }
    const ms = performance.now() - t0;
    latencies.push(ms);
    let ofStep = stepLatencies.get(name);
    if (!ofStep) {
      ofStep = [];
      stepLatencies.set(name, ofStep);
    }
    ofStep.push(ms);
    requests += 1;
    if (status === 0 || status >= 400) {
      failures += 1;
      failuresByStep.set(`${name} ${status}`, (failuresByStep.get(`${name} ${status}`) ?? 0) + 1);
    }
    if (status >= 500 || status === 0) serverErrors += 1;
  }
}

function closeMinute(minute: number) {
  const sorted = latencies.sort((a, b) => a - b);
  const inMinute = samples.filter((s) => s.second >= (minute - 1) * 60 && s.second < minute * 60);
  const steps: Record<string, StepMinute> = {};
  for (const [name, values] of stepLatencies) {
    values.sort((a, b) => a - b);
    steps[name] = {
      requests: values.length,
      meanMs: Math.round(mean(values) * 10) / 10,
      p99Ms: Math.round(percentile(values, 99) * 10) / 10,
    };
  }
  const row: Minute = {
    minute,
    steps,
    requests,
    failures,
    serverErrors,
    p50Ms: Math.round(percentile(sorted, 50) * 10) / 10,
    p99Ms: Math.round(percentile(sorted, 99) * 10) / 10,
    rssMb: Math.round((mean(inMinute.map((s) => s.rssBytes)) / MB) * 10) / 10,
    heapUsedMb: Math.round((mean(inMinute.map((s) => s.heapUsedBytes)) / MB) * 10) / 10,
  };
  minutes.push(row);
  totalRequests += requests;
  totalServerErrors += serverErrors;
  latencies = [];
  stepLatencies = new Map();
  requests = 0;
  failures = 0;
  serverErrors = 0;
  console.log(
    `${String(row.minute).padStart(6)} ${String(row.requests).padStart(9)} ${String(row.failures).padStart(8)} ${row.p50Ms.toFixed(1).padStart(8)} ${row.p99Ms.toFixed(1).padStart(8)} ${row.rssMb.toFixed(1).padStart(8)} ${row.heapUsedMb.toFixed(1).padStart(9)}`,
  );
}

console.log(`soak: academy serve (with its worker) at ${base}, ${MINUTES} min, ${CONCURRENCY} concurrent clients`);
console.log(
  `${'minute'.padStart(6)} ${'requests'.padStart(9)} ${'failed'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'RSS MB'.padStart(8)} ${'heap MB'.padStart(9)}`,
);

const sampler = (async () => {
  let minute = 1;
  while (Date.now() < endAt) {
    const second = Math.floor((Date.now() - started) / 1000);
    try {
      const text = await (await fetch(`${base}/metrics`)).text();
      samples.push({
        second,
        rssBytes: metric(text, 'process_resident_memory_bytes'),
        heapUsedBytes: metric(text, 'nodejs_heap_size_used_bytes'),
      });
    } catch (error) {
      console.error(`soak: could not read /metrics: ${(error as Error).message}`);
    }
    if (Date.now() - started >= minute * 60_000) closeMinute(minute++);
    await sleep(1000 - ((Date.now() - started) % 1000));
  }
  if (requests > 0) closeMinute(minute);
})();

await Promise.all([sampler, ...Array.from({ length: CONCURRENCY }, worker)]);

child.kill('SIGTERM');
await new Promise((resolve) => child.once('exit', resolve));
rmSync(dataDir, { recursive: true, force: true });

// The verdict: minutes 2-3 against the last two minutes.
const window = (from: number, to: number) => samples.filter((s) => s.second >= from * 60 && s.second < to * 60);
const complete = Math.floor(MINUTES);
let verdict: { flat: boolean | null; reason: string; baseline?: object; final?: object };
if (complete < 4) {
  verdict = { flat: null, reason: `no verdict: a run of ${MINUTES} min is shorter than the 4 minutes the comparison needs` };
} else {
  const early = window(1, 3);
  const late = window(complete - 2, complete);
  const heap0 = Math.min(...early.map((s) => s.heapUsedBytes));
  const heap1 = Math.min(...late.map((s) => s.heapUsedBytes));
  const rss0 = Math.min(...early.map((s) => s.rssBytes));
  const rss1 = Math.min(...late.map((s) => s.rssBytes));
  const heapAllowed = Math.max(heap0 * TOLERANCE, HEAP_FLOOR_MB * MB);
  const rssAllowed = Math.max(rss0 * TOLERANCE, RSS_FLOOR_MB * MB);
  const flat = heap1 - heap0 <= heapAllowed && rss1 - rss0 <= rssAllowed;
  const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;
  verdict = {
    flat,
    reason:
      `lowest heap used ${mb(heap0)} MB (minutes 2-3) → ${mb(heap1)} MB (minutes ${complete - 1}-${complete}), allowed +${mb(heapAllowed)} MB; ` +
      `lowest RSS ${mb(rss0)} MB → ${mb(rss1)} MB, allowed +${mb(rssAllowed)} MB`,
    baseline: { lowestHeapUsedMb: mb(heap0), lowestRssMb: mb(rss0) },
    final: { lowestHeapUsedMb: mb(heap1), lowestRssMb: mb(rss1) },
  };
}

const result = {
  at: new Date(started).toISOString(),
  minutes: MINUTES,
  concurrency: CONCURRENCY,
  tolerance: { relative: TOLERANCE, heapFloorMb: HEAP_FLOOR_MB, rssFloorMb: RSS_FLOOR_MB },
  node: process.version,
  totalRequests,
  serverErrors: totalServerErrors,
  failures: Object.fromEntries(failuresByStep),
  perMinute: minutes,
  verdict,
  samples,
};
mkdirSync(path.join(root, '.bench'), { recursive: true });
writeFileSync(path.join(root, '.bench/soak.json'), `${JSON.stringify(result, null, 2)}\n`);

// Which steps slowed down: each one's mean latency in the second minute (after warm-up) and in the last.
const first = minutes[1] ?? minutes[0];
const last = minutes.at(-1);
if (first && last && first !== last) {
  console.log(`soak: mean latency by step, minute ${first.minute} → minute ${last.minute} (p99 in brackets)`);
  for (const [, name] of steps) {
    const before = first.steps[name];
    const after = last.steps[name];
    if (!before || !after) continue;
    const factor = after.meanMs / Math.max(before.meanMs, 0.1);
    console.log(
      `  ${name.padEnd(24)} ${before.meanMs.toFixed(1).padStart(7)} ms (${before.p99Ms.toFixed(1)}) → ${after.meanMs.toFixed(1).padStart(7)} ms (${after.p99Ms.toFixed(1)})  ×${factor.toFixed(2)}`,
    );
  }
}
console.log(`soak: ${totalRequests} requests, ${totalServerErrors} server errors or dropped connections`);
if (failuresByStep.size) console.log(`soak: failed requests by step: ${JSON.stringify(Object.fromEntries(failuresByStep))}`);
console.log(`soak: memory ${verdict.flat === null ? '—' : verdict.flat ? 'FLAT' : 'GROWING'}: ${verdict.reason}`);
console.log('soak: results in .bench/soak.json');
process.exit(verdict.flat === false || totalServerErrors > 0 ? 1 : 0);
