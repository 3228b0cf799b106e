// The console's pages on a large data set (`academy seed --scale N`, BENCH_SCALE, 1 by default:
// 100,000 students), on SQLite and PostgreSQL: each list page and a student's page, asked by a
// signed-in administrator under wrk's load (8 connections, BENCH_WRK_DURATION seconds), with the
// pages' p50, p95 and p99 (issue 41: p95 under 50 ms). Distinct queries where a user would type them: the
// student search cycles through surnames of the data set, the student's page through many students.
// Standalone: npm run bench with BENCH_SUITES=console.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { assemble } from '../src/assembly/modules.ts';
import { loadConfig } from '../src/config.ts';
import { operatorContext } from '../src/platform/context.ts';
import { benchDialects, benchSecretKey, type Dataset, dataset } from './datasets.ts';
import { durationOf, SERVER_FLAGS, startServer, stop } from './http.ts';
import type { BenchRow } from './report.ts';
import { ensureWrk, runPaths } from './wrk.ts';

const log = (text: string) => process.stderr.write(`[console] ${text}\n`);
const CONNECTIONS = 8;
const P95_TARGET_MS = 50;
const SURNAMES = ['okafor', 'garcia', 'nguyen', 'smith', 'kowalski', 'rossi', 'müller', 'tanaka', 'silva', 'dubois'];

interface Page {
  name: string;
  /** Paths in turn (distinct requests), each asked as wrk cycles through them. */
  paths: string[];
}

/** A signed-in administrator's session cookie, and the pages to ask for, read from the data set. */
async function prepare(data: Dataset): Promise<{ cookie: string; pages: Page[] }> {
  const { platform, services } = assemble(loadConfig({ DATABASE_URL: data.url, ACADEMY_DATA_DIR: data.dataDir, ...benchSecretKey }), {
    logger: pino({ level: 'warn' }),
  });
  try {
    const { db } = platform.database;
    const email = 'bench.console@example.org';
    let admin = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    if (!admin) {
      const created = await services.users.create(
        operatorContext(platform),
        { name: 'Console Bench', email, roles: ['administrator'] },
        { active: true },
      );
      admin = { id: created.id };
    }
    const credentials = await db
      .selectFrom('users')
      .select(['id', 'name', 'email', 'status'])
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    const started = await db.transaction().execute((trx) =>
      services.staffAuth.start(trx, { ...credentials, passwordHash: null, permissions: [] }, 'bench', {
        ip: '127.0.0.1',
        userAgent: 'wrk',
      }),
    );
    const students = await db
      .selectFrom('users')
      .innerJoin('course_applications', 'course_applications.user_id', 'users.id')
      .select('users.id')
      .distinct()
      .orderBy('users.id')
      .limit(200)
      .execute();
    const session = await db
      .selectFrom('training_sessions')
      .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
      .select(['training_sessions.id', 'courses.slug'])
      .where('training_sessions.waitlisted_count', '>', 0)
      .orderBy('training_sessions.id')
      .executeTakeFirstOrThrow();
    const pages: Page[] = [
      { name: 'catalogue (/console/courses)', paths: ['/console/courses'] },
      { name: 'students, a surname searched', paths: SURNAMES.map((s) => `/console/students?q=${encodeURIComponent(s)}`) },
      { name: 'students, pages 1–20', paths: Array.from({ length: 20 }, (_, i) => `/console/students?page=${i + 1}`) },
      { name: "a student's page (200 students)", paths: students.map((s) => `/console/students/${s.id}`) },
      { name: 'certificates', paths: ['/console/certificates'] },
      { name: 'a session with its waitlist', paths: [`/console/courses/${session.slug}/sessions/${session.id}`] },
      { name: 'audit trail', paths: ['/console/audit'] },
      { name: 'staff', paths: ['/console/staff'] },
      { name: 'home', paths: ['/console'] },
    ];
    return { cookie: `academy_session=${started.id}`, pages };
  } finally {
    await platform.close();
  }
}

export async function consoleBench(): Promise<BenchRow[]> {
  if (!(await ensureWrk(log))) return [{ suite: 'console', target: 'console', note: 'skipped: wrk is not installed' }];
  const { dialects, skipped } = await benchDialects('console');
  const scale = Number(process.env.BENCH_SCALE ?? 1);
  const rows: BenchRow[] = [];
  for (const dialect of dialects) {
    const data = await dataset(dialect, scale, log);
    const { cookie, pages } = await prepare(data);
    const directory = mkdtempSync(path.join(tmpdir(), 'academy-bench-console-'));
    const server = await startServer<{ base: string }>('app-server.ts', SERVER_FLAGS, {
      BENCH_DATABASE_URL: data.url,
      BENCH_DATA_DIR: data.dataDir,
    });
    try {
      for (const page of pages) {
        log(`${dialect}: ${page.name}, wrk ${durationOf('wrk')} s`);
        const job = { base: server.ready.base, paths: page.paths, headers: { Cookie: cookie }, connections: CONNECTIONS, directory };
        await runPaths(job, 5); // warm-up
        const result = await runPaths(job, durationOf('wrk'));
        const failures = result.non2xx + result.errors;
        rows.push({
          suite: 'console',
          target: `${page.name} (${dialect}, scale ${scale})`,
          rps: result.rps,
          p50Ms: result.p50Ms,
          p99Ms: result.p99Ms,
          note: `${CONNECTIONS} connections, ${page.paths.length} distinct path(s); p95 ${result.p95Ms.toFixed(1)} ms: < ${P95_TARGET_MS} ms ${result.p95Ms < P95_TARGET_MS ? 'met' : 'MISSED'}${failures ? `; ${failures} not 2xx or failed` : ''}`,
        });
      }
    } finally {
      await stop(server.child);
      rmSync(directory, { recursive: true, force: true });
    }
  }
  return [...rows, ...skipped.map((row) => ({ ...row, suite: 'console' }))];
}
