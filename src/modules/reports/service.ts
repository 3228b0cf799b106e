import { PassThrough } from 'node:stream';
import type { Compilable, Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { ArrayRows, HeldSnapshot } from '../../db/held-snapshot.ts';
import type { ListRequest, Page } from '../../db/list.ts';
import type { DB } from '../../db/schema.ts';
import { audit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.ts';
import type { Outbox } from '../../platform/events/outbox.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { JobRepository } from '../../platform/jobs/repository.ts';
import { defineLifecycle } from '../../platform/lifecycle.ts';
import { requirePermission } from '../../platform/permissions.ts';
import type { Storage, StoredFile } from '../../platform/storage.ts';
import { createReportRepository, NEXT_ATTEMPT, type ReportFilter, type ReportRow } from './repository.ts';
import type { Report, ReportRequest, ReportSort, ReportStatus } from './schemas.ts';
import { onPostgres, REPORTS, type ReportFormat, type ReportParameters, type ReportType } from './types.ts';
import { type RowWriter, rowWriter } from './writers.ts';

/**
 * Ids per query while generating: one page, at most this many rows, read as arrays (about 150 KB of
 * CSV). A page lives until it is written; at 5,000 rows it outlived the young generation's
 * collections, which copied it and then promoted it: collecting took 2.2–2.5 s of a 500,000-row
 * report's thread on SQLite (3.1 s on PostgreSQL), against 0.4–0.5 s (1.8 s) at 1,000 rows.
 */
const BATCH = 1000;
/**
 * Pages of a CSV asked for while one is written, on PostgreSQL (at most this many more pages held in
 * memory), which reads them on as many connections meanwhile: at 5,000,000 rows the server's lookups
 * take longer than the thread's writing, and four connections took 76–86 s where two took 95 s on a
 * loaded machine. SQLite reads a page when it is asked for, in this thread: a page read ahead there
 * would only be held longer.
 */
const READ_AHEAD = 4;
/** Progress is written at most this often. */
const PROGRESS_EVERY_MS = 500;
const DAY = 86_400_000;

export const reportLifecycle = defineLifecycle<ReportStatus, 'generate' | 'generated' | 'stored' | 'available' | 'expire' | 'fail'>({
  table: 'reports',
  moves: {
    // A report still `generating` is taken again after a crash: the job is retried when its lease ends.
    // So is one left `generated` (a crash, or a lost connection, after its rows were written and before
    // its file was stored): that file may be incomplete, so it is written again.
    generate: { from: ['requested', 'generating', 'generated'], to: 'generating' },
    generated: { from: ['generating'], to: 'generated' },
    stored: { from: ['generated'], to: 'stored' },
    available: { from: ['stored'], to: 'available' },
    expire: { from: ['available'], to: 'expired' },
    fail: { from: ['requested', 'generating', 'generated', 'stored'], to: 'failed' },
  },
});

function present(row: ReportRow): Report {
  return {
    id: row.id,
    type: row.type as ReportType,
    format: row.format as ReportFormat,
    status: row.status as ReportStatus,
    parameters: JSON.parse(row.parameters),
    progress: row.progress,
    row_count: row.row_count,
    size: row.size === null ? null : Number(row.size),
    sha256: row.sha256,
    failure_reason: row.failure_reason,
    download_path: row.status === 'available' ? `/api/v1/reports/${row.id}/download` : null,
    generated_at: row.generated_at,
    available_at: row.available_at,
    expires_at: row.expires_at,
    expired_at: row.expired_at,
    failed_at: row.failed_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export interface ReportServiceDeps {
  db: Kysely<DB>;
  /**
   * Holds the snapshot a report is read in (Database.holdSnapshot): its count, last id and every page
   * see one state of the database, whatever is committed while it is written.
   */
  holdSnapshot: Database['holdSnapshot'];
  /** Ids per page read (BATCH unless said). */
  batch?: number;
  storage: Storage;
  outbox: Outbox;
  queue: JobQueue;
  /** The platform's jobs, which `expire` asks which reports a job is still generating. */
  jobs: JobRepository;
}

/** A report's file while it is generated: the stream storage reads, its write, and what writes into it. */
interface FileRun {
  out: PassThrough;
  stored: Promise<StoredFile>;
  writer: RowWriter | null;
  /** Why storage failed, once it has (the generation stops at its next write). */
  storeError: Error | null;
  /** The snapshot the rows are read in, while it is held. */
  snapshot: HeldSnapshot | null;
}

export function createReportService(deps: ReportServiceDeps) {
  const { db, storage, outbox } = deps;
  const batch = deps.batch ?? BATCH;
  const reports = createReportRepository(db);

  async function find(id: number, executor: Kysely<DB> = db): Promise<ReportRow> {
    const row = await reports.findById(id, executor);
    if (!row) throw new NotFoundError();
    return row;
  }

  /** Ends a report `failed` with its reason and `report.failed`, unless it already finished. */
  async function failIn(trx: Kysely<DB>, ctx: ServiceContext, id: number, reason: string): Promise<boolean> {
    const now = ctx.clock.now().toISOString();
    const before = await reports.findById(id, trx);
    const failed = await reportLifecycle.tryApply(trx, id, 'fail', {
      set: { failure_reason: reason.slice(0, 500), failed_at: now, updated_at: now },
      event: { sink: outbox, type: 'report.failed', payload: { report_id: id, reason: reason.slice(0, 500) } },
    });
    if (failed) {
      await audit.record(trx, ctx, {
        action: 'report.failed',
        subject: { type: 'report', id },
        changes: { status: [before?.status ?? null, 'failed'], failure_reason: [null, reason.slice(0, 500)] },
      });
    }
    return failed;
  }

  async function fail(ctx: ServiceContext, id: number, reason: string): Promise<void> {
    await db.transaction().execute((trx) => failIn(trx, ctx, id, reason));
  }

  /** Takes the report for this attempt (`generating`), unless it has finished meanwhile. */
  function claim(ctx: ServiceContext, id: number): Promise<boolean> {
    const started = ctx.clock.now().toISOString();
    return db.transaction().execute((trx) =>
      reportLifecycle.tryApply(trx, id, 'generate', {
        set: { attempts: NEXT_ATTEMPT, progress: 0, row_count: 0, updated_at: started },
      }),
    );
  }

  /** The report's file, stored while it is written: storage takes `out` as the writer fills it. */
  function startFile(): FileRun {
    const out = new PassThrough();
    // Its errors reach the generation through `stored` and the writer; none may go unhandled.
    out.on('error', () => {});
    const run: FileRun = { out, stored: storage.put(out, { prefix: 'reports' }), writer: null, storeError: null, snapshot: null };
    // The storage write runs beside the generation: when it fails, the writer is destroyed with its
    // error, so that a write waiting for a reader that is gone fails instead of waiting for ever.
    run.stored.catch((error: Error) => {
      run.storeError = error;
      run.writer?.destroy(error);
      out.destroy(error);
    });
    return run;
  }

  /** Writes every row of the report to its file, a page at a time, read in one snapshot; returns their number. */
  async function writeRows(ctx: ServiceContext, row: ReportRow, parameters: ReportParameters, run: FileRun): Promise<number> {
    const definition = REPORTS[row.type as ReportType];
    // exceljs takes rows without backpressure: the next page of a spreadsheet is asked for once
    // this one is written, or its zip stream would hold what the file has not taken yet.
    const ahead = row.format === 'csv' && onPostgres(db) ? READ_AHEAD : 0;
    // Pages read outside one snapshot could show a state the database never held: a cancellation
    // and the promotion it caused, committed between two pages, as one seat taken twice.
    run.snapshot = await deps.holdSnapshot(Math.max(1, ahead));
    const reader = run.snapshot;
    const one = async (query: Compilable<unknown>) => Number((await reader.arrays(query.compile())).rows[0]?.[0] ?? 0);
    const total = await one(definition.count(db, parameters));
    const last = await one(definition.lastId(db));
    run.writer = await rowWriter(row.format as ReportFormat, run.out, definition.columns, definition.title);
    if (run.storeError) throw run.storeError;
    const pages = pagesAhead((afterId, upTo) => reader.arrays(definition.page(db, parameters, afterId, upTo).compile()), last);
    const written = await writePages(ctx, row, { pages, ahead, total }, run);
    await run.snapshot.close();
    run.snapshot = null;
    await run.writer.end();
    run.out.end();
    return written;
  }

  /**
   * Pages as id ranges up to `last`: so the next ones can be asked for before this one is written (on
   * PostgreSQL, READ_AHEAD pages are read by the server, on as many connections, meanwhile).
   * `fill(n)` keeps n pages asked for; `next` takes the oldest.
   */
  function pagesAhead(read: (afterId: number, upTo: number) => Promise<ArrayRows>, last: number) {
    const reading: Promise<ArrayRows>[] = [];
    let readTo = 0;
    return {
      fill(pages: number) {
        while (reading.length < pages && readTo < last) {
          const upTo = Math.min(readTo + batch, last);
          const page = read(readTo, upTo);
          // Awaited by the writer, where its failure is reported; it must not count as unhandled meanwhile.
          page.catch(() => {});
          reading.push(page);
          readTo = upTo;
        }
      },
      next: () => reading.shift(),
    };
  }

  /** Writes the pages in order as they are read, noting progress; returns the number of rows written. */
  async function writePages(
    ctx: ServiceContext,
    row: ReportRow,
    source: { pages: ReturnType<typeof pagesAhead>; ahead: number; total: number },
    run: FileRun,
  ): Promise<number> {
    const { pages, ahead } = source;
    const writer = run.writer as RowWriter;
    const keys = REPORTS[row.type as ReportType].columns.map((column) => column.key);
    const progress = progressNoter(ctx, row.id, source.total);
    let written = 0;
    let checked = false;
    pages.fill(1);
    for (let next = pages.next(); next; next = pages.next()) {
      const page = await next;
      pages.fill(ahead);
      const rows = page.rows;
      if (rows.length === 0) {
        pages.fill(1);
        continue;
      }
      if (!checked && page.columns.join() !== keys.join()) {
        throw new Error(`The ${row.type} report's query selects ${page.columns.join(', ')}, not its columns ${keys.join(', ')}.`);
      }
      checked = true;
      await writer.write(rows);
      pages.fill(1);
      if (run.storeError) throw run.storeError;
      written += rows.length;
      await progress(written);
    }
    return written;
  }

  /**
   * Notes how far the report has got: after its first page, then at most every PROGRESS_EVERY_MS (99%
   * until it is generated). Noted first after half a second, a report of 125,000 rows could be written
   * whole on SQLite (about 270,000 rows a second) before a poller saw any row of it.
   */
  function progressNoter(ctx: ServiceContext, id: number, total: number) {
    let reportedAt = 0;
    return async (written: number) => {
      if (Date.now() - reportedAt < PROGRESS_EVERY_MS) return;
      reportedAt = Date.now();
      const progress = total === 0 ? 99 : Math.min(99, Math.floor((100 * written) / total));
      await reports.update(id, { progress, row_count: written, updated_at: ctx.clock.now().toISOString() });
    };
  }

  async function markGenerated(ctx: ServiceContext, id: number, written: number): Promise<void> {
    const generatedAt = ctx.clock.now().toISOString();
    await db.transaction().execute((trx) =>
      reportLifecycle.tryApply(trx, id, 'generated', {
        set: { progress: 100, row_count: written, generated_at: generatedAt, updated_at: generatedAt },
        event: { sink: outbox, type: 'report.generated', payload: { report_id: id, row_count: written } },
      }),
    );
  }

  /** stored → available in one transaction, with `export.completed`; false when the report has moved on. */
  function makeAvailable(ctx: ServiceContext, row: ReportRow, written: number, file: StoredFile): Promise<boolean> {
    const id = row.id;
    const now = ctx.clock.now();
    const at = now.toISOString();
    return db.transaction().execute(async (trx) => {
      const kept = await reportLifecycle.tryApply(trx, id, 'stored', {
        set: { storage_key: file.key, size: file.size, sha256: file.sha256, updated_at: at },
        event: { sink: outbox, type: 'report.stored', payload: { report_id: id, size: file.size } },
      });
      if (!kept) return false;
      const expiresAt = new Date(now.getTime() + REPORTS[row.type as ReportType].expiryDays * DAY).toISOString();
      const available = await reportLifecycle.tryApply(trx, id, 'available', {
        set: { available_at: at, expires_at: expiresAt, updated_at: at },
        event: {
          sink: outbox,
          type: 'export.completed',
          payload: {
            report_id: id,
            type: row.type,
            format: row.format,
            row_count: written,
            size: file.size,
            download_path: `/api/v1/reports/${id}/download`,
          },
        },
      });
      if (available) {
        await audit.record(trx, ctx, {
          action: 'report.made_available',
          subject: { type: 'report', id },
          changes: { status: ['generated', 'available'], size: [null, file.size], expires_at: [null, expiresAt] },
        });
      }
      return available;
    });
  }

  /** After a failure: the snapshot released, the file removed unless the report names it, the report `failed`. */
  async function abandon(ctx: ServiceContext, id: number, run: FileRun, error: unknown): Promise<void> {
    await run.snapshot?.close().catch(() => {});
    run.out.destroy(error as Error);
    const file = await run.stored.catch(() => null);
    // The file is removed unless the report names it after all: the connection may have been lost
    // at the commit that made it available. When that cannot be told now, the file is kept.
    const named = file
      ? await find(id).then(
          (now) => now.storage_key === file.key,
          () => true,
        )
      : false;
    if (file && !named) await storage.delete(file.key).catch(() => {});
    const reason = error instanceof Error ? error.message : String(error);
    ctx.logger.warn({ reportId: id, err: error }, 'report generation failed');
    await fail(ctx, id, `Generation failed: ${reason}`);
  }

  return {
    /** In the transaction that gives up the report's job for good (its attempts exhausted). */
    failIn,

    async request(ctx: ServiceContext, body: ReportRequest): Promise<Report> {
      requirePermission(ctx, 'reports.manage');
      const definition = REPORTS[body.type];
      const parameters: ReportParameters = body.parameters ?? {};
      const refused = Object.keys(parameters).filter((name) => !(definition.parameters as readonly string[]).includes(name));
      if (refused.length > 0) {
        throw new ValidationError(
          Object.fromEntries(
            refused.map((name) => [
              `parameters.${name}`,
              [`A ${body.type} report does not take ${name} (it takes: ${definition.parameters.join(', ') || 'nothing'}).`],
            ]),
          ),
        );
      }
      if (parameters.from && parameters.to && parameters.from > parameters.to) {
        throw ValidationError.field('parameters.to', 'The to day must not be before the from day.');
      }
      const now = ctx.clock.now().toISOString();
      // The answer is read in the request's transaction: once it has committed, nothing is left to fail,
      // so a 5xx (which frees an Idempotency-Key for a retry) means that no report was requested.
      const requested = await db.transaction().execute(async (trx) => {
        const id = await reports.insert(trx, {
          type: body.type,
          format: body.format ?? 'csv',
          status: 'requested',
          parameters: JSON.stringify(parameters),
          requested_by_token_id: ctx.actor.tokenId,
          request_id: ctx.requestId,
          created_at: now,
          updated_at: now,
        });
        await outbox.emit(trx, 'report.requested', { report_id: id, type: body.type, format: body.format ?? 'csv' });
        await deps.queue.enqueue(trx, 'reports.generate', { reportId: id });
        const row = await find(id, trx);
        await audit.record(trx, ctx, {
          action: 'report.requested',
          subject: { type: 'report', id },
          changes: audit.changes(null, present(row)),
        });
        return row;
      });
      return present(requested);
    },

    async list(_ctx: ServiceContext, filter: ReportFilter, list: ListRequest<ReportSort>): Promise<Page<Report>> {
      const page = await reports.list(filter, list);
      return { items: page.items.map(present), total: page.total };
    },

    async get(_ctx: ServiceContext, id: number): Promise<Report> {
      return present(await find(id));
    },

    /** The file of an available report; in every other state a 409 `report_not_available`. */
    async open(ctx: ServiceContext, id: number) {
      requirePermission(ctx, 'reports.manage');
      const row = await find(id);
      if (row.status !== 'available' || !row.storage_key) {
        throw new ConflictError('report_not_available', `The report is ${row.status}; it can be downloaded once it is available.`);
      }
      const file = await storage.get(row.storage_key);
      return { report: present(row), stream: file.stream, size: file.size };
    },

    /**
     * The job: writes the rows to a file as they are read (a keyset page at a time), records progress,
     * and moves the report through generated → stored → available. A failure ends it `failed` with the
     * reason; a crash leaves it `generating` (or `generated`, before its file is stored) until the job is
     * retried, which starts again into a new file.
     */
    async generate(ctx: ServiceContext, id: number): Promise<ReportStatus | 'skipped'> {
      if (!(await claim(ctx, id))) return 'skipped';
      const row = await find(id);
      const parameters = JSON.parse(row.parameters) as ReportParameters;
      const run = startFile();
      try {
        const written = await writeRows(ctx, row, parameters, run);
        await markGenerated(ctx, id, written);
        const file = await run.stored;
        const moved = await makeAvailable(ctx, row, written, file);
        if (!moved) await storage.delete(file.key);
        ctx.logger.info({ reportId: id, rows: written, size: file.size }, 'report available');
        return moved ? 'available' : 'skipped';
      } catch (error) {
        await abandon(ctx, id, run, error);
        return 'failed';
      }
    },

    /**
     * The expiry task's work: available reports past their expiry become `expired` and lose their
     * file; reports that stopped making progress (a crash on the job's last attempt) end `failed`.
     */
    async expire(ctx: ServiceContext): Promise<{ expired: number; removedBytes: number; stalled: number }> {
      const now = ctx.clock.now();
      const at = now.toISOString();
      const due = await reports.dueToExpire(at);
      let expired = 0;
      let removedBytes = 0;
      for (const report of due) {
        const moved = await db.transaction().execute(async (trx) => {
          const expired = await reportLifecycle.tryApply(trx, report.id, 'expire', {
            set: { expired_at: at, updated_at: at },
            event: { sink: outbox, type: 'report.expired', payload: { report_id: report.id } },
          });
          if (expired) {
            await audit.record(trx, ctx, {
              action: 'report.expired',
              subject: { type: 'report', id: report.id },
              changes: { status: ['available', 'expired'], expired_at: [null, at] },
            });
          }
          return expired;
        });
        if (!moved) continue;
        expired += 1;
        if (report.storage_key && (await storage.delete(report.storage_key))) removedBytes += Number(report.size ?? 0);
      }
      // A report is stalled when it has not moved for an hour and no job of its own is waiting or
      // running to generate it (another report's job does not keep it alive).
      const stalledBefore = new Date(now.getTime() - 60 * 60_000).toISOString();
      const queued = new Set((await deps.jobs.pendingPayloads('reports.generate')).map((payload) => payload.reportId));
      const stalled = (await reports.unfinishedIdleSince(stalledBefore)).filter((id) => !queued.has(id));
      for (const id of stalled) await fail(ctx, id, 'Generation stopped making progress and is not being retried.');
      return { expired, removedBytes, stalled: stalled.length };
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
