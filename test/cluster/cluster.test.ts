// The cluster test: two API processes and two workers of the real product on one PostgreSQL database,
// with shared Redis rate limits, a real SMTP server, a webhook receiver and one data directory, under a
// mixed workload while an API process and a worker are killed (SIGKILL) and every database connection
// is cut once. Afterwards nothing acknowledged may be missing, nothing may be stuck, and every side
// effect (webhooks, mails) must have happened exactly as the data say.
//   CLUSTER_TEST_SECONDS  length of the workload (default 60)
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { type Dirent, readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { EXIT_UNAVAILABLE } from '../../src/assembly/commands/main.ts';
import { WEBHOOK_EVENT_TYPES } from '../../src/platform/events/types.ts';
import { runCli } from '../support/cli.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { dialect, redisSkipReason, redisUrl } from '../support/env.ts';
import { eventually } from '../support/eventually.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';
import { type SmtpServer, startSmtpServer } from '../support/smtp.ts';
import { acceptInvitation, type ClusterClient, clusterClient, multipart } from './client.ts';
import { apiMember, type Member, workerMember } from './cluster.ts';

const SECONDS = Number(process.env.CLUSTER_TEST_SECONDS ?? 60);
const SEATS = [2, 3, 4, 5, 2, 3];
const STUDENTS = 30;
const RATE_LIMIT = 20;
/** Jobs a worker runs at once: as many mails can be in flight when it is killed. */
const WORKER_CONCURRENCY = 4;

const skip =
  dialect !== 'postgres'
    ? 'several processes share one database only on PostgreSQL (SQLite is one file on one machine, see "Scaling out"); runs in the PostgreSQL suite'
    : await redisSkipReason('the cluster test (shared rate limits)');

/** One request of the workload and what came of it. */
interface Op {
  kind: string;
  /** 2xx (or exit code 0 for an `academy admin` command): the client was told it was done. */
  acked: boolean;
  status: number;
  attempts: number;
  id?: number;
  /** The user a lifecycle move was for. */
  userId?: number;
  detail?: string;
}

interface Summary {
  check: string;
  expected: string | number;
  actual: string | number;
  ok: boolean;
}

const summary: Summary[] = [];
function check(name: string, expected: string | number, actual: string | number): void {
  summary.push({ check: name, expected, actual, ok: expected === actual });
}
function count(name: string, actual: string | number): void {
  summary.push({ check: name, expected: '', actual, ok: true });
}

const MOVE_NOTIFICATION: Record<string, string> = {
  invite: 'invitation',
  activate: 'activation',
  suspend: 'suspension',
  reactivate: 'reactivation',
  archive: 'archival',
};

describe('a cluster of 2 API processes and 2 workers under faults', { skip }, () => {
  let database: TestDatabase;
  let smtp: SmtpServer;
  let receiver: Receiver;
  let env: Record<string, string>;
  let db: pg.Client;
  let webhookSecret: string;
  const apis: Member[] = [];
  const workers: Member[] = [];
  const ledger: Op[] = [];
  const faults: string[] = [];
  /** Invitations accepted by the administration because the acceptance page answered 429. */
  let limitedAcceptances = 0;
  /** When a worker was killed (Date.now()). */
  const workerKills: number[] = [];
  let workloadStarted = 0;

  const cli = async (args: string[]) => runCli(['--json', ...args], env);
  /** `academy admin …` as a script would run it: again while the database is unavailable (exit 75). */
  const cliRetrying = async (args: string[]) => {
    const deadline = Date.now() + 30_000;
    for (let attempts = 1; ; attempts += 1) {
      const result = await cli(args);
      if (result.code !== EXIT_UNAVAILABLE || Date.now() > deadline) return { ...result, code: result.code ?? -1, attempts };
      await sleep(200);
    }
  };
  const cliOk = async (args: string[]) => {
    const result = await cli(args);
    assert.equal(result.code, 0, `academy ${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  };
  const at = () => `${((Date.now() - workloadStarted) / 1000).toFixed(1)} s`;

  before(
    async () => {
      const setupStarted = Date.now();
      database = await createTestDatabase({ migrated: true });
      smtp = await startSmtpServer();
      receiver = await startReceiver();
      env = {
        DATABASE_URL: database.url,
        ACADEMY_DATA_DIR: database.dataDir,
        REDIS_URL: redisUrl,
        ACADEMY_REDIS_PREFIX: `academy-cluster-${process.pid}-${randomBytes(4).toString('hex')}`,
        SMTP_URL: smtp.url,
        ACADEMY_ALLOW_PRIVATE_TARGETS: 'true',
        ACADEMY_RATE_LIMIT_PER_MINUTE: '1000000',
        ACADEMY_JOB_LEASE_SECONDS: '5',
        ACADEMY_JOB_POLL_MS: '250',
        ACADEMY_WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
        ACADEMY_SHUTDOWN_GRACE_SECONDS: '5',
        ACADEMY_ACCESS_LOG: 'false',
        ACADEMY_INVITE_URL: 'https://academy.example.org/invitations/accept',
      };
      assert.equal((await runCli(['migrate'], env)).code, 0);
      db = new pg.Client({ connectionString: database.url });
      await db.connect();

      // The endpoint first, so that every event of the run is for it.
      const hook = await cliOk(['webhooks', 'create', '--url', `${receiver.url}/hooks`]);
      webhookSecret = hook.secret;
      token = (await cliOk(['tokens', 'create', '--name', 'cluster', '--scopes', '*', '--no-expiry'])).token;
      // The processes start (slowly, on a loaded machine) while the catalogue and the students are made.
      apis.push(apiMember('api-1', env), apiMember('api-2', env));
      workers.push(workerMember('worker-1', env), workerMember('worker-2', env));
      await Promise.all([...[...apis, ...workers].map((m) => m.start()), catalogue()]);
      client = clusterClient(token, () => apis.map((a) => a.url));

      faults.push(`set up in ${((Date.now() - setupStarted) / 1000).toFixed(1)} s`);
      // The two processes of the rate-limit phase start in the background (slow on a loaded machine).
      const limited = { ...env, ACADEMY_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) };
      const pair = [apiMember('limited-1', limited), apiMember('limited-2', limited)];
      const pairStarted = Promise.all(pair.map((m) => m.start()));
      pairStarted.catch(() => {});
      await runWorkload();
      await Promise.all([drain(), pairStarted.then(() => rateLimitPhase(pair))]);
    },
    { timeout: 280_000 },
  );

  after(async () => {
    if (summary.length) {
      console.log(`\ncluster test: ${SECONDS} s of workload; faults: ${faults.join('; ')}`);
      console.table(summary.map((row) => ({ ...row, ok: row.ok ? 'yes' : 'NO' })));
      const unacknowledged = ledger.filter((op) => !op.acked);
      if (unacknowledged.length) {
        console.log('requests not acknowledged:');
        for (const op of unacknowledged) {
          console.log(
            `  ${op.kind} ${op.id ?? op.userId ?? ''} -> ${op.status} after ${op.attempts} attempt(s): ${(op.detail ?? '').trim().slice(0, 200)}`,
          );
        }
      }
    }
    await Promise.all([...apis, ...workers].map((m) => m.stop()));
    await db?.end().catch(() => {});
    await database?.drop();
  });

  const sessions: number[] = [];
  const students: number[] = [];
  let token: string;
  let client: ClusterClient;
  let rateLimit = { first: [] as number[], second: [] as number[] };
  let drained = '';

  const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)] as T;

  /** A published course with small sessions open for registration (waitlists on), and its students. */
  async function catalogue() {
    const course = { slug: 'cluster', title: 'Cluster', code: 'CL-1', price: '100.00', currency: 'GBP', language: 'en' };
    await cliOk(['admin', 'courses', 'create', '--data', JSON.stringify(course)]);
    for (const to of ['review', 'approved', 'published']) {
      await cliOk(['admin', 'courses', 'transition', 'cluster', '--data', JSON.stringify({ to_state: to })]);
    }
    const openSession = async (seats: number, i: number) => {
      const data = {
        course: 'cluster',
        name: `Session ${i + 1}`,
        max_participants: seats,
        waitlist_enabled: true,
        starts_on: '2030-03-01',
        ends_on: '2030-03-05',
      };
      const session = await cliOk(['admin', 'sessions', 'create', '--data', JSON.stringify(data)]);
      for (const to of ['scheduled', 'open_for_registration']) {
        await cliOk(['admin', 'sessions', 'transition', String(session.id), '--data', JSON.stringify({ to_state: to })]);
      }
      return session.id as number;
    };
    sessions.push(...(await Promise.all(SEATS.map(openSession))));
    const student = async (i: number) => {
      const data = { name: `Student ${i + 1}`, email: `student${i + 1}@cluster.example.org` };
      const created = await cliOk(['admin', 'students', 'create', '--data', JSON.stringify(data)]);
      await cliOk(['admin', 'applications', 'create', '--data', JSON.stringify({ student_id: created.id, course: 'cluster' })]);
      return created.id as number;
    };
    for (let i = 0; i < STUDENTS; i += 10) {
      students.push(...(await Promise.all(Array.from({ length: Math.min(10, STUDENTS - i) }, (_, j) => student(i + j)))));
    }
  }

  async function runWorkload() {
    workloadStarted = Date.now();
    const stopAt = workloadStarted + SECONDS * 1000;
    const running = () => Date.now() < stopAt;
    const live: number[] = [];

    // Enrolments and cancellations race for the seats (through `academy admin`: the API only reads them).
    async function enrolments() {
      const record = (kind: string, result: { code: number; stderr: string; attempts: number }, id?: number) => {
        const op: Op = { kind, acked: result.code === 0, status: result.code, attempts: result.attempts, id };
        if (!op.acked) op.detail = result.stderr;
        ledger.push(op);
      };
      while (running()) {
        if (live.length > 0 && Math.random() < 0.4) {
          const id = live.splice(Math.floor(Math.random() * live.length), 1)[0] as number;
          record(
            'enrolment.cancel',
            await cliRetrying(['admin', 'enrolments', 'cancel', String(id), '--data', '{"reason":"cluster"}']),
            id,
          );
        } else {
          const data = { student_id: pick(students), session_id: pick(sessions) };
          const result = await cliRetrying(['admin', 'enrolments', 'create', '--data', JSON.stringify(data)]);
          const id = result.code === 0 ? (JSON.parse(result.stdout).id as number) : undefined;
          if (id !== undefined) live.push(id);
          record('enrolment.create', result, id);
        }
        await sleep(100 + Math.random() * 200);
      }
    }

    async function post(kind: string, path: string, body: unknown, prefer: number, extra: Partial<Op> = {}) {
      const outcome = await client.call(path, { method: 'POST', body, idempotencyKey: randomUUID(), prefer });
      const data = (outcome.body as { data?: { id?: number } } | null)?.data;
      const acked = outcome.status >= 200 && outcome.status < 300;
      const op: Op = { kind, acked, status: outcome.status, attempts: outcome.attempts, id: acked ? data?.id : undefined, ...extra };
      if (!acked) op.detail = outcome.error ?? JSON.stringify(outcome.body).slice(0, 300);
      ledger.push(op);
      return op;
    }

    async function userStatus(id: number, prefer: number): Promise<string | undefined> {
      const outcome = await client.call(`/api/v1/users/${id}`, { prefer });
      return (outcome.body as { data?: { status?: string } } | null)?.data?.status;
    }

    // A staff user through every move of the lifecycle, each one sending mail.
    async function staff(n: number) {
      let round = 0;
      while (running()) {
        round += 1;
        const email = `staff-${n}-${round}@cluster.example.org`;
        const created = await post('user.create', '/api/v1/users', { name: `Staff ${n}.${round}`, email }, round);
        if (created.id === undefined) continue;
        const userId = created.id;
        const moves: [string, string][] = [
          ['invite', 'invited'],
          ['activate', 'active'],
          ['suspend', 'suspended'],
          ['reactivate', 'active'],
          ['archive', 'archived'],
        ];
        for (const [i, [move, to]] of moves.entries()) {
          if (!running()) break;
          const prefer = round + i;
          let op: Op;
          if (move === 'activate') op = await activate(userId, email, prefer);
          else op = await post(`user.${move}`, `/api/v1/users/${userId}/${move}`, undefined, prefer, { userId });
          // Not acknowledged (its process died with it): go on only if it was done all the same.
          if (!op.acked && (await userStatus(userId, prefer)) !== to) break;
        }
      }
    }

    // Accepting the invitation from the mail, as the invited person does; the administration
    // activates instead when the mail is late (its worker may just have been killed).
    async function activate(userId: number, email: string, prefer: number): Promise<Op> {
      const mail = await eventually(() => smtp.messages.find((m) => m.to.includes(email)), {
        what: `the invitation to ${email}`,
        timeoutMs: 15_000,
        intervalMs: 100,
      }).catch(() => undefined);
      const link = mail ? /token=([A-Za-z0-9_-]+)/.exec(mail.mail.text ?? '') : null;
      if (link) {
        const outcome = await acceptInvitation(() => apis.map((a) => a.url), link[1] as string, 'cluster-orbit-harbour-lantern', prefer);
        // The page is limited per client address (policy `public`, 30 a minute, shared by both
        // processes); past it, the administration activates instead, as it would for a person.
        if (outcome.status !== 429) {
          const op: Op = {
            kind: 'user.activate',
            acked: outcome.status === 303,
            status: outcome.status,
            attempts: outcome.attempts,
            userId,
          };
          if (!op.acked) op.detail = outcome.error ?? JSON.stringify(outcome.body).slice(0, 300);
          ledger.push(op);
          return op;
        }
        limitedAcceptances += 1;
      }
      const result = await cliRetrying(['admin', 'users', 'activate', String(userId)]);
      const op: Op = { kind: 'user.activate', acked: result.code === 0, status: result.code, attempts: result.attempts, userId };
      if (!op.acked) op.detail = result.stderr;
      ledger.push(op);
      return op;
    }

    async function documents() {
      let n = 0;
      while (running()) {
        n += 1;
        const body = multipart(
          { type: 'course_document', title: `Notes ${n}` },
          { name: `notes-${n}.txt`, type: 'text/plain', data: Buffer.from(`notes ${n}\n${randomBytes(1500).toString('hex')}\n`) },
        );
        const outcome = await client.call('/api/v1/documents', { method: 'POST', raw: body, idempotencyKey: randomUUID(), prefer: n });
        const acked = outcome.status >= 200 && outcome.status < 300;
        const id = acked ? (outcome.body as { data: { id: number } }).data.id : undefined;
        const op: Op = { kind: 'document.upload', acked, status: outcome.status, attempts: outcome.attempts, id };
        if (!acked) op.detail = outcome.error ?? JSON.stringify(outcome.body).slice(0, 300);
        ledger.push(op);
        await sleep(200 + Math.random() * 300);
      }
    }

    async function reports() {
      let n = 0;
      while (running()) {
        n += 1;
        await post('report.request', '/api/v1/reports', { type: n % 2 ? 'session_capacity' : 'enrolments', format: 'csv' }, n);
        await sleep(2000 + Math.random() * 1500);
      }
    }

    // Reads, spread over both processes, so that a killed process is found by readers too.
    async function readers() {
      let n = 0;
      while (running()) {
        n += 1;
        const path = pick(['/api/v1/enrolments?per_page=50', '/api/v1/users?per_page=50', '/api/v1/documents', '/api/v1/notifications']);
        const outcome = await client.call(path, { prefer: n });
        ledger.push({ kind: 'read', acked: outcome.status === 200, status: outcome.status, attempts: outcome.attempts });
        await sleep(100 + Math.random() * 200);
      }
    }

    // Each fault at its own moment, whatever the restarts before it take on a loaded machine.
    const atFraction = async (fraction: number, fault: () => Promise<void>) => {
      const wait = workloadStarted + SECONDS * 1000 * fraction - Date.now();
      if (wait > 0) await sleep(wait);
      await fault();
    };
    const killAndRestart = async (member: Member) => {
      faults.push(`SIGKILL ${member.name} at ${at()}`);
      if (member.url === null) workerKills.push(Date.now());
      await member.kill();
      await sleep(1000);
      await member.start();
      faults.push(`${member.name} back at ${at()}`);
    };
    const chaos = () =>
      Promise.all([
        atFraction(0.2, () => killAndRestart(apis[0] as Member)),
        atFraction(0.4, async () => {
          const cut = await db.query(
            'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
          );
          faults.push(`${cut.rowCount} PostgreSQL connections cut at ${at()}`);
        }),
        atFraction(0.6, () => killAndRestart(workers[0] as Member)),
      ]);

    await Promise.all([enrolments(), enrolments(), enrolments(), staff(1), staff(2), documents(), reports(), readers(), chaos()]);
  }

  /** Waits (bounded) until the queue has nothing left to do now or soon, and every mail and webhook is out. */
  async function drain() {
    const started = Date.now();
    const pending = await db.query(
      `select name, count(*)::int as n, count(locked_at)::int as running, round(extract(epoch from max(run_at) - now()))::int as last from jobs where failed_at is null group by name order by name`,
    );
    faults.push(
      `queue at the end of the workload: ${pending.rows.map((r) => `${r.name} ${r.n} (${r.running} running, last due in ${r.last} s)`).join(', ') || 'empty'}`,
    );
    let last = '';
    try {
      await eventually(
        async () => {
          const jobs = await db.query(
            `select count(*)::int as n from jobs where failed_at is null and (locked_at is not null or run_at <= now() + interval '45 seconds')`,
          );
          const queued = await db.query(`select count(*)::int as n from notifications where status = 'queued'`);
          const events = await db.query('select id from events where type = any($1)', [WEBHOOK_EVENT_TYPES]);
          const seen = new Set(receiver.requests.map((r) => r.headers['webhook-id']));
          const unseen = events.rows.filter((e) => !seen.has(e.id)).length;
          last = `${jobs.rows[0].n} jobs due or running, ${queued.rows[0].n} notifications queued, ${unseen} events not received`;
          return jobs.rows[0].n === 0 && queued.rows[0].n === 0 && unseen === 0;
        },
        { what: 'the queue to drain', timeoutMs: 100_000, intervalMs: 500 },
      );
      drained = `drained in ${((Date.now() - started) / 1000).toFixed(1)} s`;
    } catch {
      drained = `NOT drained after ${((Date.now() - started) / 1000).toFixed(1)} s: ${last}`;
    }
    faults.push(`${drained} (${((Date.now() - workloadStarted) / 1000).toFixed(1)} s after the workload began)`);
  }

  /** Two more API processes with a small per-token limit: the limit holds across both, exactly. */
  async function rateLimitPhase(pair: Member[]) {
    try {
      const secret = (await cliOk(['tokens', 'create', '--name', 'limited', '--scopes', 'organization:read'])).token;
      const get = async (member: Member) =>
        (await fetch(`${member.url}/api/v1/organization`, { headers: { authorization: `Bearer ${secret}` } })).status;
      // Three quarters of the limit through the first process: a process counting alone, or only its
      // share of the limit, would refuse some of these already.
      const first: number[] = [];
      for (let i = 0; i < (RATE_LIMIT * 3) / 4; i += 1) first.push(await get(pair[0] as Member));
      // Then at once through both, more than the rest of the limit.
      const second = await Promise.all(Array.from({ length: 2 * RATE_LIMIT }, (_, i) => get(pair[i % 2] as Member)));
      rateLimit = { first, second };
    } finally {
      await Promise.all(pair.map((m) => m.stop()));
    }
  }

  const acked = (kind: string) => ledger.filter((op) => op.kind === kind && op.acked);
  const rows = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) => (await db.query(text, values)).rows as T[];

  test('the workload ran against both API processes through the faults', () => {
    const kinds = [...new Set(ledger.map((op) => op.kind))].sort();
    for (const kind of kinds) {
      const ops = ledger.filter((op) => op.kind === kind);
      count(
        `${kind}: requests (acknowledged, retried)`,
        `${ops.length} (${ops.filter((o) => o.acked).length}, ${ops.filter((o) => o.attempts > 1).length})`,
      );
    }
    count('invitations activated by the administration after a 429 from the acceptance page', limitedAcceptances);
    const errors = ledger.filter((op) => op.status >= 500 && op.status !== 503);
    check('answers 5xx other than 503', 0, errors.length);
    assert.equal(errors.length, 0, JSON.stringify(errors.slice(0, 5)));
    // The workload sends only valid requests: a 4xx blames the client for a fault of the cluster (a 400
    // for an upload whose database connection was reset, say). Explained are an Idempotency-Key's
    // outcomes (still held by a request of the killed process, or carried out without its answer) and
    // a retried invitation acceptance (a form without a key, whose first attempt may have been done).
    const keyOutcome = /"code":"idempotency_key_(in_use|answer_lost)"/;
    const explained = (op: Op) =>
      (op.status === 409 && keyOutcome.test(op.detail ?? '')) || (op.kind === 'user.activate' && op.attempts > 1);
    const refused = ledger.filter((op) => op.status >= 400 && op.status < 500 && !explained(op));
    check('answers 4xx to valid requests (but the explained ones)', 0, refused.length);
    assert.equal(refused.length, 0, JSON.stringify(refused.slice(0, 5)));
    check('restarts (API, worker)', '1, 1', `${(apis[0]?.generations ?? 1) - 1}, ${(workers[0]?.generations ?? 1) - 1}`);
    assert.ok(acked('enrolment.create').length > 0 && acked('user.create').length > 0 && acked('document.upload').length > 0);
    assert.ok(acked('report.request').length > 0);
    assert.match(drained, /^drained/, drained);
  });

  test('every acknowledged write is in the database', async () => {
    const present = async (table: string, ids: number[]) =>
      ids.length === 0 ? 0 : ((await rows<{ n: number }>(`select count(*)::int as n from ${table} where id = any($1)`, [ids]))[0]?.n ?? 0);
    const tables: [string, string][] = [
      ['enrolment.create', 'enrolments'],
      ['user.create', 'users'],
      ['document.upload', 'documents'],
      ['report.request', 'reports'],
    ];
    for (const [kind, table] of tables) {
      const ids = acked(kind).map((op) => op.id as number);
      const found = await present(table, ids);
      check(`${kind}: acknowledged ids found in ${table}`, ids.length, found);
      assert.equal(found, ids.length, kind);
    }
    const cancelled = acked('enrolment.cancel').map((op) => op.id as number);
    const really = (
      await rows<{ n: number }>(`select count(*)::int as n from enrolments where id = any($1) and status = 'cancelled'`, [cancelled])
    )[0]?.n;
    check('enrolment.cancel: acknowledged, and cancelled in the database', cancelled.length, really ?? 0);
    assert.equal(really, cancelled.length);
    // A retried POST was done once: one document per upload (titles are unique), one report per request.
    const twice = await rows<{ n: number }>(
      `select (select count(*)::int from (select title from documents group by title having count(*) > 1) d) +
              (select count(*)::int from (select request_id from reports group by request_id having count(*) > 1) r) as n`,
    );
    check('uploads or report requests done twice', 0, twice[0]?.n ?? -1);
    assert.equal(twice[0]?.n, 0);
    const docs = acked('document.upload').map((op) => op.id as number);
    const available = (
      await rows<{ n: number }>(`select count(*)::int as n from documents where id = any($1) and status = 'available'`, [docs])
    )[0]?.n;
    check('document.upload: acknowledged, now available (file verified)', docs.length, available ?? 0);
    assert.equal(available, docs.length);
  });

  test('every stored document and available report has its file in the shared storage', async () => {
    const root = path.join(database.dataDir, 'files');
    const files = new Set(
      (readdirSync(root, { recursive: true, withFileTypes: true }) as Dirent[])
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')),
    );
    const keys = await rows<{ kind: string; id: number; status: string; storage_key: string }>(
      `select 'document' as kind, id, status, storage_key from documents
       union all select 'report', id, status, storage_key from reports where status = 'available'`,
    );
    const lost = keys.filter((k) => !files.has(k.storage_key));
    const missing = lost.length;
    const known = new Set(
      (
        await rows<{ storage_key: string }>(
          'select storage_key from documents union all select storage_key from reports where storage_key is not null',
        )
      ).map((k) => k.storage_key),
    );
    const partial = [...files].filter((f) => f.startsWith('.partial/')).length;
    const unreferenced = [...files].filter((f) => !f.startsWith('.partial/') && !known.has(f)).length;
    count('files in storage (unfinished writes, files without a row)', `${files.size} (${partial}, ${unreferenced})`);
    check('documents and available reports without their file', 0, missing);
    assert.deepEqual(lost, []);
  });

  test('every event reached the receiver, and one webhook-id never came with two bodies', async () => {
    const events = await rows<{ id: string }>('select id from events where type = any($1)', [WEBHOOK_EVENT_TYPES]);
    const internal = await rows<{ n: number }>('select count(*)::int as n from events where not (type = any($1))', [WEBHOOK_EVENT_TYPES]);
    const bodies = new Map<string, Set<string>>();
    const signer = new Webhook(webhookSecret);
    let badSignatures = 0;
    for (const request of receiver.requests) {
      const id = String(request.headers['webhook-id']);
      if (!bodies.has(id)) bodies.set(id, new Set());
      bodies.get(id)?.add(request.body);
      try {
        signer.verify(request.body, request.headers as Record<string, string>);
      } catch {
        badSignatures += 1;
      }
    }
    const missing = events.filter((e) => !bodies.has(e.id));
    const conflicting = [...bodies.values()].filter((set) => set.size > 1).length;
    const unknown = [...bodies.keys()].filter((id) => !events.some((e) => e.id === id)).length;
    count('events in the outbox: webhook types (internal only)', `${events.length} (${internal[0]?.n})`);
    count('webhook requests received (distinct webhook-ids)', `${receiver.requests.length} (${bodies.size})`);
    check('events never received', 0, missing.length);
    check('webhook-ids received with two different bodies', 0, conflicting);
    check('webhook-ids received that are not in the outbox', 0, unknown);
    check('webhook requests with a bad signature', 0, badSignatures);
    const deliveries = await rows<{ status: string; n: number }>(
      'select status, count(*)::int as n from webhook_deliveries group by status order by status',
    );
    count('webhook deliveries by status', deliveries.map((d) => `${d.status} ${d.n}`).join(', '));
    assert.ok(events.length > 0);
    assert.deepEqual(
      missing.map((e) => e.id),
      [],
    );
    assert.equal(conflicting, 0);
    assert.equal(unknown, 0);
    assert.equal(badSignatures, 0);
  });

  test('exactly one notification per lifecycle move, and one mail per sent notification', async () => {
    const notifications = await rows<{
      id: number;
      type: string;
      status: string;
      user_id: number;
      recipient: string;
      subject: string;
      attempts: number;
      last_error: string | null;
    }>('select id, type, status, user_id, recipient, subject, attempts, last_error from notifications order by id');
    const perMove = new Map<string, number>();
    for (const n of notifications) perMove.set(`${n.user_id}/${n.type}`, (perMove.get(`${n.user_id}/${n.type}`) ?? 0) + 1);
    const moves = ledger.filter((op) => op.kind.startsWith('user.') && op.kind !== 'user.create');
    const ackedMoves = moves.filter((op) => op.acked);
    const wrong = ackedMoves.filter((op) => perMove.get(`${op.userId}/${MOVE_NOTIFICATION[op.kind.slice(5)]}`) !== 1);
    const duplicated = [...perMove.values()].filter((n) => n > 1).length;
    // A notification for a move that nobody asked for (or two for one) would show here.
    const unasked = notifications.filter(
      (n) => !moves.some((op) => op.userId === n.user_id && MOVE_NOTIFICATION[op.kind.slice(5)] === n.type),
    );
    count('lifecycle moves acknowledged (not acknowledged)', `${ackedMoves.length} (${moves.length - ackedMoves.length})`);
    check('acknowledged moves without exactly one notification', 0, wrong.length);
    check('moves with two notifications', 0, duplicated);
    check('notifications for a move never requested', 0, unasked.length);
    assert.deepEqual(wrong, []);
    assert.equal(duplicated, 0);
    assert.deepEqual(unasked, []);

    const byStatus = (status: string) => notifications.filter((n) => n.status === status);
    count(
      'notifications (sent, queued, failed)',
      `${notifications.length} (${byStatus('sent').length}, ${byStatus('queued').length}, ${byStatus('failed').length})`,
    );
    check('notifications not sent', 0, notifications.length - byStatus('sent').length);
    const mails = new Map<string, number[]>();
    for (const m of smtp.messages) {
      const key = `${m.to.join(',')}|${m.mail.subject}`;
      mails.set(key, [...(mails.get(key) ?? []), m.receivedAt]);
    }
    const sent = byStatus('sent');
    const arrivals = (n: { recipient: string; subject: string }) => mails.get(`${n.recipient}|${n.subject}`) ?? [];
    // The duplicate a crash can cause, once per mail job in flight: the worker was killed after the
    // mail server had taken the message and before it could record that, so the job ran again after
    // its lease. The first copy
    // then arrived around a kill (the moment is noted just before the signal, and a message whose
    // bytes were all sent is stamped when the server has read them, which can be a little later) and
    // the second one after it. On a machine whose two cores ran both suites at once, a killed
    // worker's message was stamped 1.5 s after the kill (the server's reads wait for this process's
    // turn): the first copy may arrive up to 3 s after the kill, and the second after both.
    const KILL_SKEW_MS = 3000;
    const resentAfterKill = (times: number[]) => {
      const [first, second] = times as [number, number];
      return (
        times.length === 2 &&
        workerKills.some((kill) => first <= kill + KILL_SKEW_MS && first > kill - 3000 && second > kill && second > first)
      );
    };
    const resent = sent.filter((n) => resentAfterKill(arrivals(n)));
    const notOnce = sent.filter((n) => arrivals(n).length !== 1 && !resentAfterKill(arrivals(n)));
    const stray = [...mails.keys()].filter((key) => !sent.some((n) => `${n.recipient}|${n.subject}` === key)).length;
    const relative = (t: number) => `${((t - workloadStarted) / 1000).toFixed(2)} s`;
    check('mails at the SMTP server (less resent after a worker kill)', sent.length, smtp.messages.length - resent.length);
    check('sent notifications without exactly one mail', 0, notOnce.length);
    count('mails sent twice: the worker killed between the mail server taking it and recording it', resent.length);
    check('mails for no sent notification', 0, stray);
    const explain = (list: typeof sent) =>
      JSON.stringify(
        list.map((n) => ({ ...n, mails: arrivals(n).map(relative), workerKills: workerKills.map(relative) })),
        null,
        1,
      );
    if (resent.length) console.log(`resent after a worker kill: ${explain(resent)}`);
    assert.equal(byStatus('sent').length, notifications.length, JSON.stringify(notifications.filter((n) => n.status !== 'sent')));
    assert.deepEqual(notOnce, [], explain(notOnce));
    assert.equal(stray, 0);
    assert.ok(
      resent.length <= workerKills.length * WORKER_CONCURRENCY,
      `at most one mail resent per job the killed worker was running (${WORKER_CONCURRENCY} at most per kill)`,
    );
  });

  test('waitlists are numbered 1..n in every session and no session has more confirmed than seats', async () => {
    const list = await rows<{ id: number; max_participants: number; confirmed_count: number; waitlisted_count: number }>(
      'select id, max_participants, confirmed_count, waitlisted_count from training_sessions order by id',
    );
    let broken = 0;
    let overbooked = 0;
    let counters = 0;
    let idleSeats = 0;
    let confirmed = 0;
    let waitlisted = 0;
    for (const session of list) {
      const enrolments = await rows<{ status: string; waitlist_position: number | null }>(
        `select status, waitlist_position from enrolments where session_id = $1 and status <> 'cancelled' order by waitlist_position`,
        [session.id],
      );
      const positions = enrolments.filter((e) => e.status === 'waitlisted').map((e) => e.waitlist_position);
      const seated = enrolments.filter((e) => e.status === 'confirmed').length;
      confirmed += seated;
      waitlisted += positions.length;
      if (positions.some((p, i) => p !== i + 1)) broken += 1;
      if (seated > session.max_participants) overbooked += 1;
      if (seated !== session.confirmed_count || positions.length !== session.waitlisted_count) counters += 1;
      if (seated < session.max_participants && positions.length > 0) idleSeats += 1;
    }
    count('sessions (confirmed, waitlisted enrolments)', `${list.length} (${confirmed}, ${waitlisted})`);
    check('sessions whose waitlist is not 1..n', 0, broken);
    check('sessions with more confirmed than seats', 0, overbooked);
    check('sessions whose counters differ from their enrolments', 0, counters);
    check('sessions with a free seat and a waitlist', 0, idleSeats);
    assert.equal(broken, 0);
    assert.equal(overbooked, 0);
    assert.equal(counters, 0);
    assert.equal(idleSeats, 0);
  });

  test('no job is left running or stuck, and every report ended available or failed with a reason', async () => {
    const jobs = await rows<{ name: string; locked: boolean; due: boolean; failed: boolean; last_error: string | null }>(
      `select name, locked_at is not null as locked, run_at <= now() as due, failed_at is not null as failed, last_error from jobs order by id`,
    );
    const running = jobs.filter((j) => j.locked).length;
    const due = jobs.filter((j) => !j.locked && !j.failed && j.due).length;
    const failed = jobs.filter((j) => j.failed);
    count('jobs left (all waiting for a later run)', jobs.length - running - due - failed.length);
    check('jobs still running', 0, running);
    check('jobs due but not run', 0, due);
    check('jobs failed', 0, failed.length);
    assert.equal(running, 0);
    assert.equal(due, 0);
    assert.deepEqual(failed, []);

    const reports = await rows<{ status: string; failure_reason: string | null }>('select status, failure_reason from reports');
    const available = reports.filter((r) => r.status === 'available').length;
    const failedWithReason = reports.filter((r) => r.status === 'failed' && r.failure_reason).length;
    count('reports (available, failed with a reason)', `${reports.length} (${available}, ${failedWithReason})`);
    check('reports neither available nor failed with a reason', 0, reports.length - available - failedWithReason);
    assert.equal(available + failedWithReason, reports.length, JSON.stringify(reports.filter((r) => r.status !== 'available')));
  });

  test('the per-token rate limit is exact across two API processes', () => {
    const ok = [...rateLimit.first, ...rateLimit.second].filter((s) => s === 200).length;
    const refused = [...rateLimit.first, ...rateLimit.second].filter((s) => s === 429).length;
    const sent = rateLimit.first.length + rateLimit.second.length;
    check(`rate limit ${RATE_LIMIT}/min: ${sent} requests, answered 200`, RATE_LIMIT, ok);
    check(`rate limit ${RATE_LIMIT}/min: answered 429`, sent - RATE_LIMIT, refused);
    assert.deepEqual(
      rateLimit.first.filter((s) => s !== 200),
      [],
      'the first requests, all through one process, are within the limit',
    );
    assert.equal(ok, RATE_LIMIT);
    assert.equal(refused, sent - RATE_LIMIT);
  });
});
