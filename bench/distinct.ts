// What registrars and integrators ask of a large academy, each request a query the server has not seen:
// students by a surname, by a full name or an email, any page of the whole list, the grouped search, and
// the catalogue's lists (courses, sessions, enrolments by course and status, certificates, staff users).
// Names are the data set's own (`academy seed --scale N`), pages are drawn over each list's length, and
// sorts, directions and filters vary, so no URL repeats within a window and nothing is answered from a
// kept page: this measures the database and the request path, not what a process keeps.
//
// For each data set (BENCH_SCALES, "1,10" by default; SQLite and PostgreSQL, BENCH_DATABASES) and each
// mix of queries, on a freshly started server:
//   first time   FIRST_QUERIES queries one after another, each the first of its filter (p50, p99, max)
//   under load   wrk, 8 connections, BENCH_WRK_DURATION seconds (30 by default), over other distinct paths
// and one row of the same URL repeated (`GET /students?search=okafor`), named as what it measures: a
// kept page. Target (issue 44): p99 < 50 ms under load for every mix, at scale 10, on both databases.
// Before each build is measured its data set is read once into the operating system's file cache
// (`resident`), as a server that has run a while has it.
// BENCH_COMPARE=<checkout> measures that checkout's server first, beside this one's (before and after);
// BENCH_MIXES=grouped,surname runs the mixes whose names hold one of those words.
// Standalone: node --import ./bin/tsx-loader.js bench/distinct.ts
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { assemble } from '../src/assembly/modules.ts';
import { loadConfig } from '../src/config.ts';
import { createRandom, type Random } from '../src/modules/demo/random.ts';
import { benchDialects, benchSecretKey, type Dataset, dataset } from './datasets.ts';
import { durationOf, SERVER_FLAGS, stop } from './http.ts';
import { type BenchRow, formatTable } from './report.ts';
import { ensureWrk, runPaths } from './wrk.ts';

const CONNECTIONS = 8;
const P99_TARGET_MS = 50;
const FIRST_QUERIES = Number(process.env.BENCH_FIRST_QUERIES ?? 100);
/** Distinct paths per mix under load: more than a window asks for, so that none repeats. */
const LOAD_PATHS = 60_000;
const REPEATED = '/api/v1/students?search=okafor';

function log(text: string): void {
  process.stderr.write(`[bench] ${text}\n`);
}

/** What the queries are drawn from: the data set's names, courses and sizes. */
interface Facts {
  students: number;
  staff: number;
  surnames: string[];
  firstNames: string[];
  courses: { id: number; slug: string }[];
  /** Enrolments per course id (for the depth of its pages). */
  enrolments: Map<number, number>;
  /** Ids of students and of the first staff user. */
  maxStudentId: number;
}

/** A query: its path, and its filter (the path without page, order or size), which a first-time query has alone. */
interface Query {
  path: string;
  filter: string;
}

interface Mix {
  name: string;
  draw(random: Random, facts: Facts): Query;
}

const PAGE_SIZES = [15, 20, 50, 100];
const STUDENT_SORTS = ['id', 'name', 'email', 'created_at', 'updated_at'];
const DIRECTIONS = ['asc', 'desc'];

/** A page drawn evenly over a list of `rows` rows at `perPage` a page. */
function anyPage(random: Random, rows: number, perPage: number): number {
  return random.int(1, Math.max(1, Math.ceil(rows / perPage)));
}

function query(base: string, filters: Record<string, string | number | undefined>, window: Record<string, string | number>): Query {
  const given = (entries: Record<string, string | number | undefined>) =>
    Object.entries(entries).flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${encodeURIComponent(String(v))}`]));
  const filter = given(filters);
  return { path: `/api/v1${base}?${[...filter, ...given(window)].join('&')}`, filter: `${base}?${filter.join('&')}` };
}

const status = (random: Random) => random.pick([undefined, undefined, 'verified', 'unverified']);

const MIXES: Mix[] = [
  {
    name: 'students by a surname, any page',
    draw(random, facts) {
      const perPage = random.pick(PAGE_SIZES);
      const surname = random.pick(facts.surnames);
      const state = status(random);
      const matches = facts.students / facts.surnames.length / (state ? 2 : 1);
      return query(
        '/students',
        { search: surname, status: state },
        {
          sort: random.pick(STUDENT_SORTS),
          direction: random.pick(DIRECTIONS),
          per_page: perPage,
          page: anyPage(random, matches, perPage),
        },
      );
    },
  },
  {
    name: 'students by a full name or an email',
    draw(random, facts) {
      const first = random.pick(facts.firstNames);
      const last = random.pick(facts.surnames);
      const search = random.pick([
        `${first} ${last}`,
        `${first} ${last}`,
        `.${random.int(1, facts.students)}@learners`,
        first.toLowerCase(),
      ]);
      return query(
        '/students',
        { search, status: status(random) },
        { sort: random.pick(STUDENT_SORTS), per_page: random.pick(PAGE_SIZES) },
      );
    },
  },
  {
    name: 'students, any page of the whole list',
    draw(random, facts) {
      const perPage = random.pick(PAGE_SIZES);
      const state = status(random);
      return query(
        '/students',
        { status: state, sort: random.pick(STUDENT_SORTS), direction: random.pick(DIRECTIONS) },
        { per_page: perPage, page: anyPage(random, facts.students / (state ? 2 : 1), perPage) },
      );
    },
  },
  {
    name: 'the grouped search, a name or an email',
    draw(random, facts) {
      const first = random.pick(facts.firstNames);
      const last = random.pick(facts.surnames);
      const q = random.pick([`${first} ${last}`, `${first} ${last}`, `.${random.int(1, facts.students)}@`, last, first, last.slice(0, 4)]);
      return query('/search', { q, limit: random.int(1, 20) }, {});
    },
  },
  {
    name: 'the catalogue and staff lists, any page',
    draw(random, facts) {
      const perPage = random.pick(PAGE_SIZES);
      const course = random.pick(facts.courses);
      const direction = random.pick(DIRECTIONS);
      switch (random.int(0, 4)) {
        case 0:
          return query(
            '/courses',
            {
              active: random.pick([undefined, 'true', 'false']),
              sort: random.pick(['id', 'title', 'price', 'created_at', 'updated_at']),
              direction,
            },
            { per_page: perPage, page: anyPage(random, facts.courses.length, perPage) },
          );
        case 1:
          return query(
            `/courses/${course.slug}/sessions`,
            { sort: random.pick(['id', 'starts_on', 'updated_at']), direction },
            { per_page: perPage, page: 1 },
          );
        case 2: {
          const state = random.pick([undefined, 'confirmed', 'waitlisted', 'cancelled']);
          const rows = (facts.enrolments.get(course.id) ?? 0) / (state ? 3 : 1);
          return query(
            '/enrolments',
            { course_id: course.id, status: state, sort: random.pick(['id', 'created_at', 'updated_at']), direction },
            { per_page: perPage, page: anyPage(random, rows, perPage) },
          );
        }
        case 3:
          return random.chance(0.5)
            ? query('/certificates', { student_id: random.int(1, facts.maxStudentId) }, { per_page: perPage })
            : query(
                '/certificates',
                { course_id: course.id, sort: random.pick(['id', 'issued_at', 'certificate_number']), direction },
                { per_page: perPage, page: anyPage(random, (facts.enrolments.get(course.id) ?? 0) / 10, perPage) },
              );
        default:
          return query(
            '/users',
            { status: random.pick([undefined, 'active', 'invited', 'suspended']), sort: random.pick(STUDENT_SORTS), direction },
            { per_page: perPage, page: anyPage(random, facts.staff / 2, perPage) },
          );
      }
    },
  },
];

/** Distinct queries of `mix`: `count` with filters of their own (first time), or `count` paths. */
function drawDistinct(mix: Mix, random: Random, facts: Facts, count: number, own: 'filter' | 'path', taken: Set<string>): string[] {
  const paths: string[] = [];
  for (let tries = 0; paths.length < count && tries < count * 20; tries++) {
    const next = mix.draw(random, facts);
    const key = own === 'filter' ? next.filter : next.path;
    if (taken.has(key) || taken.has(next.path)) continue;
    taken.add(key);
    taken.add(next.path);
    paths.push(next.path);
  }
  return paths;
}

async function factsOf(data: Dataset): Promise<Facts> {
  const { platform } = assemble(loadConfig({ DATABASE_URL: data.url, ACADEMY_DATA_DIR: data.dataDir, ...benchSecretKey }), {
    logger: pino({ level: 'warn' }),
  });
  try {
    const { db } = platform.database;
    const sample = await db.selectFrom('users').select('name').where(sql<boolean>`id % 97 = 0`).limit(5000).execute();
    const firstNames = new Set<string>();
    const surnames = new Set<string>();
    for (const { name } of sample) {
      const space = name.indexOf(' ');
      firstNames.add(name.slice(0, space));
      surnames.add(name.slice(space + 1).toLowerCase());
    }
    const courses = await db.selectFrom('courses').select(['id', 'slug']).orderBy('id').execute();
    const enrolments = await db
      .selectFrom('enrolments')
      .innerJoin('training_sessions', 'training_sessions.id', 'enrolments.session_id')
      .select(['training_sessions.course_id as course', sql<number>`count(*)`.as('n')])
      .groupBy('training_sessions.course_id')
      .execute();
    return {
      students: data.summary.students,
      staff: data.summary.staff,
      surnames: [...surnames].sort(),
      firstNames: [...firstNames].sort(),
      courses: courses.map((c) => ({ id: Number(c.id), slug: c.slug })),
      enrolments: new Map(enrolments.map((e) => [Number(e.course), Number(e.n)])),
      maxStudentId: data.summary.students,
    };
  } finally {
    await platform.close();
  }
}

/** The benchmark's app server, of this checkout or of `checkout`, over the data set. */
async function startApp(data: Dataset, checkout: string | null): Promise<{ child: ChildProcess; base: string; token: string }> {
  const script = checkout ? path.join(checkout, 'bench', 'app-server.ts') : fileURLToPath(new URL('app-server.ts', import.meta.url));
  const child = fork(script, [], {
    cwd: checkout ?? process.cwd(),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // BENCH_SERVER_FLAGS: more flags for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles` to
    // see where a mix's time goes (node refuses --cpu-prof in NODE_OPTIONS).
    execArgv: [...SERVER_FLAGS, ...(process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? [])],
    env: { ...process.env, BENCH_DATABASE_URL: data.url, BENCH_DATA_DIR: data.dataDir },
  });
  const ready = await new Promise<{ base: string; token: string }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { base: string; token: string }));
    child.once('exit', (code) => reject(new Error(`the app server exited (code ${code}) before it was ready`)));
  });
  return { child, ...ready };
}

/** Each path once, one after another: latencies in ms, sorted, and the failures. */
async function oneAtATime(base: string, token: string, paths: string[]): Promise<{ times: number[]; failed: string[] }> {
  const times: number[] = [];
  const failed: string[] = [];
  for (const p of paths) {
    const started = performance.now();
    const response = await fetch(`${base}${p}`, { headers: { Authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    times.push(performance.now() - started);
    if (response.status !== 200) failed.push(`${response.status} ${p}`);
  }
  return { times: times.sort((a, b) => a - b), failed };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number;

async function benchBuild(data: Dataset, facts: Facts, seconds: number, checkout: string | null, directory: string): Promise<BenchRow[]> {
  const label = `${data.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, scale ${data.summary.scale}${checkout ? `, ${buildName(checkout)}` : ''}`;
  const rows: BenchRow[] = [];
  const app = await startApp(data, checkout);
  try {
    const headers = { Authorization: `Bearer ${app.token}` };
    for (const [index, mix] of MIXES.entries()) {
      if (!chosen(mix)) continue;
      // The same draws for every build and database: before and after answer the same questions.
      const random = createRandom(0x44 + index);
      const taken = new Set<string>();
      const first = drawDistinct(mix, random, facts, FIRST_QUERIES, 'filter', taken);
      const warm = drawDistinct(mix, random, facts, 300, 'path', taken);
      const loaded = drawDistinct(mix, random, facts, LOAD_PATHS, 'path', taken);
      log(`${label}: ${mix.name}: ${first.length} first-time queries one at a time`);
      const once = await oneAtATime(app.base, app.token, first);
      // A failed answer (the old build's 503 after the statement timeout) is counted, not hidden.
      const failed = once.failed.length ? `; ${once.failed.length} not answered 200, e.g. ${once.failed[0]}` : '';
      rows.push({
        suite: 'distinct',
        target: `${mix.name} (${label}): first time`,
        p50Ms: percentile(once.times, 0.5),
        p99Ms: percentile(once.times, 0.99),
        note: `${once.times.length} queries, each the first of its filter, one at a time; max ${(once.times.at(-1) as number).toFixed(1)} ms${failed}`,
      });
      const job = { base: app.base, paths: warm, headers, connections: CONNECTIONS, directory };
      await runPaths(job, 2);
      log(`${label}: ${mix.name}: wrk, ${CONNECTIONS} connections, ${seconds} s over ${loaded.length} distinct paths`);
      const result = await runPaths({ ...job, paths: loaded }, seconds);
      const requests = Math.round(result.rps * seconds);
      // A window in which nothing was answered (every request past wrk's 10 s timeout) met nothing.
      const answered = requests > 0;
      const met = answered && result.errors === 0 && result.p99Ms < P99_TARGET_MS ? 'met' : 'MISSED';
      rows.push({
        suite: 'distinct',
        target: `${mix.name} (${label}): under load`,
        rps: result.rps,
        ...(answered ? { p50Ms: result.p50Ms, p99Ms: result.p99Ms } : {}),
        note: `p99 < ${P99_TARGET_MS} ms ${met}${answered ? '' : ' (no request answered within 10 s)'}; about ${requests} requests over ${loaded.length} distinct paths${requests > loaded.length ? ' (some repeated)' : ''}; wrk ${seconds} s, ${CONNECTIONS} connections${result.non2xx || result.errors ? `; ${result.non2xx} non-2xx, ${result.errors} errors` : ''}`,
      });
    }
    // The same URL every time: after its first answer, a kept page (ADR 0017) is what this measures.
    await runPaths({ base: app.base, paths: [REPEATED], headers, connections: CONNECTIONS, directory }, 2);
    const repeated = await runPaths({ base: app.base, paths: [REPEATED], headers, connections: CONNECTIONS, directory }, seconds);
    rows.push({
      suite: 'distinct',
      target: `one URL repeated, ${REPEATED.replace('/api/v1', '')} (${label}): a kept page`,
      rps: repeated.rps,
      p50Ms: repeated.p50Ms,
      p99Ms: repeated.p99Ms,
      note: `the same URL every time measures serving a kept answer, not the database; wrk ${seconds} s, ${CONNECTIONS} connections`,
    });
  } finally {
    await stop(app.child);
  }
  return rows;
}

/** BENCH_MIXES: the mixes to run, by a word of their names (`surname,grouped`); all by default. */
function chosen(mix: Mix): boolean {
  const words = (process.env.BENCH_MIXES ?? '')
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
  return words.length === 0 || words.some((word) => mix.name.includes(word));
}

function buildName(checkout: string): string {
  try {
    return `build ${execFileSync('git', ['-C', checkout, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()}`;
  } catch {
    return path.basename(checkout);
  }
}

/**
 * Reads the data set once into the operating system's file cache before a build is measured, as a
 * server that has run a while has it there: what this machine's cache held otherwise depended on what
 * ran before (1.6 of SQLite's 3.5 GB at scale 10 after two seeds, and the surname mix then answered
 * 163 requests/s instead of 448). SQLite: its file; PostgreSQL: every table and index of the data
 * set through `pg_prewarm` in `read` mode (the file cache, not shared buffers), when it is installed.
 */
async function resident(data: Dataset): Promise<void> {
  const started = performance.now();
  if (data.dialect === 'sqlite') {
    const file = data.url.replace(/^sqlite:/, '');
    for await (const _ of createReadStream(file, { highWaterMark: 1 << 22 })) {
      // Read and dropped: the pages stay in the file cache.
    }
  } else {
    const client = new pg.Client({ connectionString: data.url });
    await client.connect();
    try {
      await client.query('create extension if not exists pg_prewarm');
      await client.query(
        "select sum(pg_prewarm(c.oid, 'read')) from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'i', 'm', 't')",
      );
    } catch (error) {
      log(`${data.dialect}: the data set was not read ahead (${(error as Error).message}); its first queries read from disk`);
      return;
    } finally {
      await client.end();
    }
  }
  log(`${data.dialect}: the data set read into the file cache in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

export async function distinctBench(): Promise<BenchRow[]> {
  if (!(await ensureWrk(log))) {
    return [
      {
        suite: 'distinct',
        target: 'distinct queries',
        note: 'skipped: wrk is not installed (apt-get install wrk, or BENCH_WRK=/path/to/wrk)',
      },
    ];
  }
  const scales = (process.env.BENCH_SCALES ?? '1,10').split(',').map((s) => Number(s.trim()));
  const seconds = durationOf('wrk');
  const compare = process.env.BENCH_COMPARE ? path.resolve(process.env.BENCH_COMPARE) : null;
  const { dialects, skipped } = await benchDialects('distinct');
  const rows: BenchRow[] = [...skipped];
  const directory = mkdtempSync(path.join(tmpdir(), 'academy-bench-distinct-'));
  try {
    for (const scale of scales) {
      for (const dialect of dialects) {
        const data = await dataset(dialect, scale, log);
        const facts = await factsOf(data);
        if (compare) {
          await resident(data);
          rows.push(...(await benchBuild(data, facts, seconds, compare, directory)));
        }
        await resident(data);
        rows.push(...(await benchBuild(data, facts, seconds, null, directory)));
      }
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(formatTable(await distinctBench()));
}
