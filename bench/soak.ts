// Soak: `academy serve` (API and worker in one process, with the Node.js flags of the `academy`
// command, as deployed) over a fresh demo database, under a mixed
// workload for SOAK_MINUTES (10), with the server's own memory read from /metrics every second.
//
//   npm run soak                      10 minutes on SQLite, without Redis
//   SOAK_MINUTES=4 SOAK_CONCURRENCY=4 npm run soak
//   SOAK_DATABASE=postgres SOAK_REDIS=1 npm run soak
//
// SOAK_DATABASE=postgres runs on a PostgreSQL database created for the run (academy_soak_<pid>_<hex>)
// on BENCH_POSTGRES_URL's server (postgres://postgres@127.0.0.1:5432/postgres) and dropped at the end,
// with a random ACADEMY_SECRET_KEY; the default is a SQLite file in a temporary data directory.
// SOAK_REDIS=1 sets REDIS_URL (SOAK_REDIS_URL, redis://127.0.0.1:6379) with an ACADEMY_REDIS_PREFIX of
// the run's own, whose keys are deleted at the end; the default runs without Redis.
//
// The mix includes conditional requests: GETs revalidating an earlier answer of the same URL with its
// ETag (304, or a 200 with another ETag once the resource changed), GETs of URLs drawn afresh (pages,
// per_page, sorts, filters: mostly representations the server has not kept) with `If-None-Match: *`
// (304) or a stale tag (200), and PATCH /organization with `If-Match` of the current ETag (200; the
// organization's PATCHes take turns so that nothing changes it between the read and the write) or of
// a stale one (412). A conditional answer other than the one expected is a failure.
//
// Each minute it prints steps run, failed steps, 5xx answers other than 503 (dropped connections
// included), 503s, 304s, 412s, p99 latency, mean RSS and mean V8 heap used. The memory verdict
// compares low-water marks, what the process keeps after garbage collection (a mean follows the GC
// sawtooth and the load of the moment): memory is flat when, after a first minute of warm-up, the
// lowest heap used and the lowest RSS sampled in the last two minutes are at most SOAK_TOLERANCE
// (15 %) above those of minutes 2-3, or within an absolute floor (heap 16 MB, RSS 32 MB) that keeps
// a small process's ordinary noise from counting as growth. A run of fewer than 4 minutes gives no
// memory verdict. Exits 1 when the server process exited during the run (the soak then stops), memory
// grew, a request was answered with a 5xx other than 503 or its connection dropped, or a conditional
// request got a wrong answer; 503s and other 4xx are reported, not failed on. Results go to
// .bench/soak.json.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { SERVER_FLAGS } from './node-flags.ts';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 6);
const TOLERANCE = Number(process.env.SOAK_TOLERANCE ?? 0.15);
const DATABASE = process.env.SOAK_DATABASE || 'sqlite';
const WITH_REDIS = process.env.SOAK_REDIS === '1';
const postgresAdminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.SOAK_REDIS_URL ?? 'redis://127.0.0.1:6379';
const HEAP_FLOOR_MB = 16;
const RSS_FLOOR_MB = 32;
const MB = 1024 * 1024;
const root = path.resolve(import.meta.dirname, '..');
if (DATABASE !== 'sqlite' && DATABASE !== 'postgres') throw new Error(`SOAK_DATABASE must be sqlite or postgres, got "${DATABASE}"`);

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

async function admin(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** What the server runs on: its database (and Redis), the environment naming them, and their removal. */
interface Backing {
  label: string;
  env: Record<string, string>;
  release(): Promise<void>;
}

async function prepareBacking(dataDir: string): Promise<Backing> {
  const env: Record<string, string> = { REDIS_URL: '' };
  const labels: string[] = [];
  const releases: (() => Promise<void>)[] = [];
  if (DATABASE === 'postgres') {
    const name = `academy_soak_${process.pid}_${randomBytes(4).toString('hex')}`;
    await admin(`create database ${name}`);
    releases.push(() => admin(`drop database if exists ${name} with (force)`));
    const url = new URL(postgresAdminUrl);
    url.pathname = `/${name}`;
    env.DATABASE_URL = url.toString();
    env.ACADEMY_SECRET_KEY = randomBytes(32).toString('base64');
    env.ACADEMY_SECRET_KEY_FILE = '';
    labels.push(`PostgreSQL database ${name}`);
  } else {
    env.DATABASE_URL = `sqlite:${path.join(dataDir, 'academy.db')}`;
    labels.push('SQLite');
  }
  if (WITH_REDIS) {
    const prefix = `academy-soak-${process.pid}-${randomBytes(4).toString('hex')}`;
    env.REDIS_URL = redisUrl;
    env.ACADEMY_REDIS_PREFIX = prefix;
    releases.push(() => deleteRedisKeys(`${prefix}:*`));
    labels.push(`Redis (prefix ${prefix})`);
  }
  return {
    label: labels.join(' + '),
    env,
    release: async () => {
      for (const release of releases.reverse()) {
        await release().catch((error) => console.error(`soak: cleaning up: ${(error as Error).message}`));
      }
    },
  };
}

async function deleteRedisKeys(pattern: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** How the server process ended, when it ended before the soak stopped it. */
let serverExit: { atMs: number; code: number | null; signal: string | null } | null = null;
let stopping = false;
let stderrTail = '';
let server: ChildProcess | null = null;

async function startServer(dataDir: string, backing: Backing): Promise<{ base: string; token: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVER_FLAGS, path.join(root, 'bin/academy.js'), 'serve', '--demo'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      ACADEMY_DATA_DIR: dataDir,
      ACADEMY_RATE_LIMIT_PER_MINUTE: '100000000',
      ACADEMY_ACCESS_LOG: 'false',
      LOG_LEVEL: 'warn',
      ...backing.env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  server = child;
  child.once('exit', (code, signal) => {
    if (!stopping) serverExit = { atMs: Date.now(), code, signal };
  });
  // The last lines only: they say why the process ended, if it does.
  child.stderr?.on('data', (chunk) => {
    stderrTail = (stderrTail + chunk).slice(-8192);
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`academy serve exited (${child.exitCode}):\n${stderrTail}`);
    try {
      const ready = await fetch(`${base}/readyz`);
      if (ready.ok) {
        const token = readFileSync(path.join(dataDir, 'demo-token'), 'utf8').trim();
        return { base, token };
      }
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  throw new Error(`academy serve did not become ready in 120 s:\n${stderrTail}`);
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

const dataDir = mkdtempSync(path.join(tmpdir(), 'academy-soak-'));
let backing: Backing | null = null;

/** Stops the server if it still runs, then removes its database, Redis keys and data directory. */
async function teardown(): Promise<void> {
  stopping = true;
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await backing?.release();
  rmSync(dataDir, { recursive: true, force: true });
}

/** A setup step that fails leaves no database, keys or server behind. */
const orTeardown = <T>(promise: Promise<T>): Promise<T> =>
  promise.catch(async (error) => {
    await teardown();
    throw error;
  });

process.once('SIGINT', () => {
  console.error('soak: interrupted; cleaning up');
  teardown().finally(() => process.exit(130));
});

backing = await orTeardown(prepareBacking(dataDir));
const { base, token } = await orTeardown(startServer(dataDir, backing));
const api = `${base}/api/v1`;
const auth = { authorization: `Bearer ${token}` };
const json = { ...auth, 'content-type': 'application/json' };

/** Answers counted by status, per minute, whichever step sent the request. */
interface Tally {
  notModified: number;
  preconditionFailed: number;
  unavailable: number;
  /** 5xx answers other than 503. */
  serverErrors: number;
  /** Requests whose connection failed or dropped before the answer was read. */
  dropped: number;
}
const newTally = (): Tally => ({ notModified: 0, preconditionFailed: 0, unavailable: 0, serverErrors: 0, dropped: 0 });
let tally = newTally();
const totals = newTally();

interface Answer {
  status: number;
  etag: string | null;
  body: unknown;
}

/**
 * The ETags of earlier answers by URL, for revalidation: at most KNOWN_URLS, a random one replaced
 * when full, so that old answers (of representations the server may no longer keep) stay among them.
 */
const KNOWN_URLS = 5000;
const etags = new Map<string, string>();
const knownUrls: string[] = [];
function remember(url: string, etag: string): void {
  if (!etags.has(url)) {
    if (knownUrls.length < KNOWN_URLS) knownUrls.push(url);
    else {
      const slot = Math.floor(Math.random() * KNOWN_URLS);
      etags.delete(knownUrls[slot] as string);
      knownUrls[slot] = url;
    }
  }
  etags.set(url, etag);
}

async function send(method: string, url: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  let answer: Answer;
  try {
    const response = await fetch(`${api}${url}`, {
      method,
      headers: { ...(options.body === undefined ? auth : json), ...options.headers },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    const isJson = response.headers.get('content-type')?.startsWith('application/json') && text !== '';
    answer = { status: response.status, etag: response.headers.get('etag'), body: isJson ? JSON.parse(text) : undefined };
  } catch {
    answer = { status: 0, etag: null, body: undefined };
  }
  const { status, etag } = answer;
  if (status === 0) tally.dropped += 1;
  else if (status === 304) tally.notModified += 1;
  else if (status === 412) tally.preconditionFailed += 1;
  else if (status === 503) tally.unavailable += 1;
  else if (status >= 500) tally.serverErrors += 1;
  if (method === 'GET' && etag && (status === 200 || status === 304)) remember(url, etag);
  return answer;
}

const list = async <T>(url: string): Promise<T[]> => {
  const answer = await send('GET', url);
  if (answer.status !== 200) throw new Error(`GET ${url}: ${answer.status}`);
  return (answer.body as { data: T[] }).data;
};

/** What a step got: the status of its last (or first failing) request, and whether it was the one expected. */
interface Outcome {
  status: number;
  ok: boolean;
  /** What was wrong with a conditional request's answer, beside a 5xx or a dropped connection. */
  wrong?: string;
}
const plain = (status: number): Outcome => ({ status, ok: status > 0 && status < 400 });
/** The outcome of a conditional request: one of the expected statuses, and no other fault (`problem`). */
function expectAnswer(status: number, expected: number[], problem?: string): Outcome {
  if (status === 0 || status >= 500) return { status, ok: false };
  if (!expected.includes(status)) return { status, ok: false, wrong: `${status}, expected ${expected.join(' or ')}` };
  if (problem) return { status, ok: false, wrong: problem };
  return { status, ok: true };
}

// What the workload reads: ids and slugs of the demo academy.
const [courses, students, enrolments] = await orTeardown(
  Promise.all([
    list<{ slug: string }>('/courses?per_page=100').then((rows) => rows.map((c) => c.slug)),
    list<{ id: number }>('/students?per_page=100').then((rows) => rows.map((s) => s.id)),
    list<{ id: number }>('/enrolments?per_page=100').then((rows) => rows.map((e) => e.id)),
  ]),
);
const pick = <T>(values: T[]): T => values[Math.floor(Math.random() * values.length)] as T;
const WORDS = ['project', 'safety', 'excel', 'lead', 'first', 'data', 'smith', 'ann', 'cert'];
const phone = () => `+44 20 7946 ${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
/** A well-formed tag no representation has. */
const staleTag = () => `"${randomBytes(24).toString('base64url')}"`;
let created = 0;

/**
 * The organization's ETag before the soak's first PATCH of it, stale from then on: the PATCH below
 * changes its `updated_at`, which only grows.
 */
const staleOrganizationTag = await orTeardown(
  (async () => {
    const before = await send('GET', '/organization');
    const patched = await send('PATCH', '/organization', { body: { phone: phone() } });
    const after = await send('GET', '/organization');
    if (before.status !== 200 || patched.status !== 200 || !before.etag || !after.etag || after.etag === before.etag) {
      throw new Error(`organization: GET ${before.status} ${before.etag}, PATCH ${patched.status}, GET ${after.status} ${after.etag}`);
    }
    return before.etag;
  })(),
);

/**
 * The organization's PATCHes take turns, so that no other PATCH comes between the read of its ETag
 * and a write with `If-Match` of it (which must then succeed).
 */
let organizationTurn: Promise<unknown> = Promise.resolve();
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const result = organizationTurn.then(work);
  organizationTurn = result.catch(() => {});
  return result;
}

/** The lists and what they sort and filter by (the query values the API documents). */
const LISTS: [string, string[], string[]][] = [
  ['/courses', ['id', 'title', 'price', 'created_at', 'updated_at'], ['active=true', 'active=false']],
  ['/students', ['id', 'name', 'email', 'created_at', 'updated_at'], ['status=verified', 'status=unverified']],
  ['/enrolments', ['id', 'created_at', 'updated_at'], ['status=confirmed', 'status=waitlisted', 'status=cancelled']],
  ['/users', ['id', 'name', 'email', 'created_at', 'updated_at'], ['status=invited', 'status=archived', 'status=draft']],
  ['/certificates', ['id', 'issued_at', 'certificate_number', 'updated_at'], ['status=valid', 'status=revoked']],
  ['/reports', ['id', 'created_at', 'updated_at'], ['status=available', 'type=enrolments', 'type=completions']],
];

/**
 * A URL drawn from tens of thousands: mostly a list page (page, per_page, sort, direction and maybe a
 * filter), else a single resource, a course's sessions, a search or the organization. Most draws
 * name a representation nothing has asked for yet.
 */
function anyUrl(): string {
  if (Math.random() < 0.75) {
    const [list, sorts, filters] = pick(LISTS);
    const query = [
      `page=${1 + Math.floor(Math.random() * 4)}`,
      `per_page=${1 + Math.floor(Math.random() * 100)}`,
      `sort=${pick(sorts)}`,
      `direction=${pick(['asc', 'desc'])}`,
    ];
    if (Math.random() < 0.5) query.push(pick(filters));
    return `${list}?${query.join('&')}`;
  }
  return pick([
    () => `/courses/${pick(courses)}`,
    () => `/courses/${pick(courses)}/sessions`,
    () => `/students/${pick(students)}`,
    () => `/enrolments/${pick(enrolments)}`,
    () => `/search?q=${pick(WORDS)}&limit=${1 + Math.floor(Math.random() * 50)}`,
    () => '/organization',
  ])();
}

type Step = () => Promise<Outcome>;
const call = async (method: string, url: string, body?: unknown): Promise<Outcome> => plain((await send(method, url, { body })).status);

/** The mixed workload: mostly reads, with writes, searches, report requests and conditional requests among them. */
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
  [4, 'patch organization', () => inTurn(() => call('PATCH', '/organization', { phone: phone() }))],
  [
    3,
    'create and move a user',
    async () => {
      created += 1;
      const answer = await send('POST', '/users', {
        body: { name: `Soak User ${created}`, email: `soak.${process.pid}.${created}@example.org` },
      });
      if (answer.status !== 201) return plain(answer.status);
      const { id } = (answer.body as { data: { id: number } }).data;
      // The moves the API offers a new user (activation is the invitation's acceptance, outside the API).
      for (const move of ['invite', 'archive']) {
        const status = (await send('POST', `/users/${id}/${move}`)).status;
        if (status >= 400 || status === 0) return plain(status);
      }
      return plain(201);
    },
  ],
  [
    1,
    'request a report',
    () => call('POST', '/reports', { type: pick(['enrolments', 'completions', 'session_capacity']), format: pick(['csv', 'xlsx']) }),
  ],
  [2, 'list reports', () => call('GET', '/reports?per_page=15')],
  [
    10,
    'revalidate with ETag',
    async () => {
      const url = knownUrls.length ? pick(knownUrls) : anyUrl();
      const sent = etags.get(url);
      if (!sent) return call('GET', url);
      const { status, etag } = await send('GET', url, { headers: { 'if-none-match': sent } });
      // 304 with the tag sent, or (the resource changed since) 200 with another.
      if (status === 304 && etag !== sent) return expectAnswer(status, [304], `304 with ETag ${etag}, ${sent} sent`);
      if (status === 200 && etag === sent) return expectAnswer(status, [200], '200 with the ETag sent in If-None-Match');
      return expectAnswer(status, [304, 200]);
    },
  ],
  [6, 'If-None-Match: *', async () => expectAnswer((await send('GET', anyUrl(), { headers: { 'if-none-match': '*' } })).status, [304])],
  [
    4,
    'stale If-None-Match',
    async () => expectAnswer((await send('GET', anyUrl(), { headers: { 'if-none-match': staleTag() } })).status, [200]),
  ],
  [
    2,
    'If-Match current',
    () =>
      inTurn(async () => {
        const known = etags.get('/organization');
        const read = await send('GET', '/organization', known ? { headers: { 'if-none-match': known } } : {});
        if (read.status !== 200 && read.status !== 304) return expectAnswer(read.status, [200, 304]);
        if (!read.etag) return expectAnswer(read.status, [200, 304], `GET /organization answered ${read.status} without an ETag`);
        const { status } = await send('PATCH', '/organization', { body: { phone: phone() }, headers: { 'if-match': read.etag } });
        return expectAnswer(status, [200]);
      }),
  ],
  [
    2,
    'stale If-Match',
    async () => {
      const tag = Math.random() < 0.5 ? staleOrganizationTag : staleTag();
      const { status } = await send('PATCH', '/organization', { body: { phone: phone() }, headers: { 'if-match': tag } });
      return expectAnswer(status, [412]);
    },
  ],
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
  /** Steps run (a step may send more than one request). */
  requests: number;
  /** Steps that did not get the answer they expected (503s included). */
  failures: number;
  /** Answers of every request sent in the minute, by the statuses that matter. */
  answers: Tally;
  p50Ms: number;
  p99Ms: number;
  rssMb: number;
  heapUsedMb: number;
}

const started = Date.now();
const endAt = started + MINUTES * 60_000;
/** The run goes on until its time is up or the server process is gone. */
const running = () => Date.now() < endAt && serverExit === null;
const samples: Sample[] = [];
const minutes: Minute[] = [];
let latencies: number[] = [];
let stepLatencies = new Map<string, number[]>();
let requests = 0;
let failures = 0;
let totalRequests = 0;
let wrongAnswers = 0;
const failuresByStep = new Map<string, number>();
const wrongByStep = new Map<string, number>();

async function worker(): Promise<void> {
  while (running()) {
    const [name, step] = nextStep();
    const t0 = performance.now();
    let outcome: Outcome;
    try {
      outcome = await step();
    } catch {
      outcome = { status: 0, ok: false };
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
    if (!outcome.ok) {
      failures += 1;
      failuresByStep.set(`${name} ${outcome.status}`, (failuresByStep.get(`${name} ${outcome.status}`) ?? 0) + 1);
    }
    if (outcome.wrong) {
      wrongAnswers += 1;
      const key = `${name}: ${outcome.wrong}`;
      wrongByStep.set(key, (wrongByStep.get(key) ?? 0) + 1);
    }
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
    answers: tally,
    p50Ms: Math.round(percentile(sorted, 50) * 10) / 10,
    p99Ms: Math.round(percentile(sorted, 99) * 10) / 10,
    rssMb: Math.round((mean(inMinute.map((s) => s.rssBytes)) / MB) * 10) / 10,
    heapUsedMb: Math.round((mean(inMinute.map((s) => s.heapUsedBytes)) / MB) * 10) / 10,
  };
  minutes.push(row);
  totalRequests += requests;
  for (const key of Object.keys(totals) as (keyof Tally)[]) totals[key] += tally[key];
  latencies = [];
  stepLatencies = new Map();
  requests = 0;
  failures = 0;
  tally = newTally();
  const { answers } = row;
  console.log(
    [
      String(row.minute).padStart(6),
      String(row.requests).padStart(9),
      String(row.failures).padStart(7),
      String(answers.serverErrors + answers.dropped).padStart(5),
      String(answers.unavailable).padStart(5),
      String(answers.notModified).padStart(6),
      String(answers.preconditionFailed).padStart(5),
      row.p50Ms.toFixed(1).padStart(8),
      row.p99Ms.toFixed(1).padStart(8),
      row.rssMb.toFixed(1).padStart(8),
      row.heapUsedMb.toFixed(1).padStart(9),
    ].join(' '),
  );
}

console.log(`soak: academy serve (with its worker) at ${base} on ${backing.label}, ${MINUTES} min, ${CONCURRENCY} concurrent clients`);
console.log(
  [
    'minute'.padStart(6),
    'requests'.padStart(9),
    'failed'.padStart(7),
    '5xx'.padStart(5),
    '503'.padStart(5),
    '304'.padStart(6),
    '412'.padStart(5),
    'p50 ms'.padStart(8),
    'p99 ms'.padStart(8),
    'RSS MB'.padStart(8),
    'heap MB'.padStart(9),
  ].join(' '),
);

const sampler = (async () => {
  let minute = 1;
  while (running()) {
    const second = Math.floor((Date.now() - started) / 1000);
    try {
      const text = await (await fetch(`${base}/metrics`)).text();
      samples.push({
        second,
        rssBytes: metric(text, 'process_resident_memory_bytes'),
        heapUsedBytes: metric(text, 'nodejs_heap_size_used_bytes'),
      });
    } catch (error) {
      if (serverExit === null) console.error(`soak: could not read /metrics: ${(error as Error).message}`);
    }
    if (Date.now() - started >= minute * 60_000) closeMinute(minute++);
    await sleep(1000 - ((Date.now() - started) % 1000));
  }
  if (requests > 0) closeMinute(minute);
})();

await Promise.all([sampler, ...Array.from({ length: CONCURRENCY }, worker)]);

const exited = serverExit as { atMs: number; code: number | null; signal: string | null } | null;
await teardown();

// The verdict: minutes 2-3 against the last two minutes.
const window = (from: number, to: number) => samples.filter((s) => s.second >= from * 60 && s.second < to * 60);
const complete = Math.floor(MINUTES);
let verdict: { flat: boolean | null; reason: string; baseline?: object; final?: object };
if (exited) {
  verdict = { flat: null, reason: 'no verdict: the server process exited during the run' };
} else if (complete < 4) {
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

const failedBecause = [
  exited &&
    `the server process exited after ${((exited.atMs - started) / 60_000).toFixed(1)} min (code ${exited.code}, signal ${exited.signal})`,
  totals.serverErrors > 0 && `${totals.serverErrors} answers with a 5xx other than 503`,
  totals.dropped > 0 && `${totals.dropped} dropped connections`,
  wrongAnswers > 0 && `${wrongAnswers} wrong answers to conditional requests`,
  verdict.flat === false && 'memory grew',
].filter((reason): reason is string => typeof reason === 'string');

const result = {
  at: new Date(started).toISOString(),
  minutes: MINUTES,
  concurrency: CONCURRENCY,
  database: DATABASE,
  redis: WITH_REDIS,
  tolerance: { relative: TOLERANCE, heapFloorMb: HEAP_FLOOR_MB, rssFloorMb: RSS_FLOOR_MB },
  node: process.version,
  totalRequests,
  answers: totals,
  serverExit: exited && {
    afterSeconds: Math.round((exited.atMs - started) / 1000),
    code: exited.code,
    signal: exited.signal,
    stderr: stderrTail,
  },
  failures: Object.fromEntries(failuresByStep),
  wrongAnswers: Object.fromEntries(wrongByStep),
  perMinute: minutes,
  verdict,
  failedBecause,
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
if (exited) {
  console.log(
    `soak: the SERVER EXITED after ${((exited.atMs - started) / 1000).toFixed(0)} s (code ${exited.code}, signal ${exited.signal}); its last output:`,
  );
  console.log(stderrTail.trimEnd() || '  (none)');
}
console.log(
  `soak: ${totalRequests} steps; answers: ${totals.notModified} 304, ${totals.preconditionFailed} 412, ${totals.unavailable} 503, ` +
    `${totals.serverErrors} other 5xx, ${totals.dropped} dropped connections`,
);
if (failuresByStep.size) console.log(`soak: failed steps: ${JSON.stringify(Object.fromEntries(failuresByStep))}`);
if (wrongByStep.size) console.log(`soak: wrong conditional answers: ${JSON.stringify(Object.fromEntries(wrongByStep))}`);
console.log(`soak: memory ${verdict.flat === null ? '—' : verdict.flat ? 'FLAT' : 'GROWING'}: ${verdict.reason}`);
console.log(failedBecause.length ? `soak: FAILED: ${failedBecause.join('; ')}` : 'soak: PASSED');
console.log('soak: results in .bench/soak.json');
process.exit(failedBecause.length ? 1 : 0);
