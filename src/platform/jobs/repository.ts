import { type Kysely, type QueryCreator, type Selectable, sql } from 'kysely';
import { json } from '../../db/codec.ts';
import type { Dialect } from '../../db/database.ts';
import type { DB, JobTable } from '../../db/schema.ts';
import type { JobName, JobPayloads } from './names.ts';

export type JobRow = Selectable<JobTable>;

export interface NewJob {
  name: string;
  payload: string;
  key: string | null;
  run_at: string;
  max_attempts: number;
  request_id?: string | null;
  created_at: string;
}

/** Who may still settle a claimed job: the worker holding it, or the sweeper of locks older than a cutoff. */
export type LockOwner = { worker: string } | { lockedBefore: string };

export const NOTIFY_CHANNEL = 'academy_jobs';

export function createJobRepository(db: Kysely<DB>, dialect: Dialect) {
  return {
    /**
     * Inserts a job; while a job with the same key exists (waiting or running), nothing is inserted
     * and `undefined` is returned. Completed jobs are deleted and failed ones give up their key.
     */
    insert: async (trx: Kysely<DB>, job: NewJob): Promise<number | undefined> => {
      const row = await trx
        .insertInto('jobs')
        .values({ ...job, attempts: 0, updated_at: job.created_at })
        .onConflict((oc) => oc.column('key').doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },

    /**
     * Claims up to `limit` due jobs for `worker`, counting the attempt. On PostgreSQL the candidates
     * are locked once in a CTE and rows other workers hold are skipped (FOR UPDATE SKIP LOCKED); SQLite
     * has one writer at a time, so the single UPDATE statement is already atomic.
     */
    claim: async (worker: string, now: string, limit: number): Promise<JobRow[]> => {
      const due = (qb: QueryCreator<DB>) =>
        qb
          .selectFrom('jobs')
          .select('id')
          .where('failed_at', 'is', null)
          .where('locked_at', 'is', null)
          .where('run_at', '<=', now)
          .orderBy('run_at')
          .orderBy('id')
          .limit(limit);
      if (dialect === 'postgres') {
        return db
          .with('due', (qb) => due(qb).forUpdate().skipLocked())
          .updateTable('jobs')
          .from('due')
          .set((eb) => ({ locked_by: worker, locked_at: now, attempts: eb('jobs.attempts', '+', 1), updated_at: now }))
          .whereRef('jobs.id', '=', 'due.id')
          .returningAll('jobs')
          .execute();
      }
      return db
        .updateTable('jobs')
        .set((eb) => ({ locked_by: worker, locked_at: now, attempts: eb('attempts', '+', 1), updated_at: now }))
        .where('id', 'in', due(db))
        .returningAll()
        .execute();
    },

    /** The payloads of the jobs of `name` waiting or running (completed jobs are deleted; failed ones are left out). */
    pendingPayloads: async <N extends JobName>(name: N): Promise<JobPayloads[N][]> =>
      (await db.selectFrom('jobs').select('payload').where('name', '=', name).where('failed_at', 'is', null).execute()).map(({ payload }) =>
        json<JobPayloads[N]>(payload),
      ),

    /** Completed jobs are removed; the lock owner check keeps a swept-and-reclaimed job safe. */
    complete: async (id: number, worker: string): Promise<boolean> => {
      const result = await db.deleteFrom('jobs').where('id', '=', id).where('locked_by', '=', worker).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Renews the lease of jobs still running, so that a long job is not swept from a live worker. */
    extendLease: async (worker: string, ids: number[], now: string): Promise<number> => {
      if (ids.length === 0) return 0;
      const result = await db
        .updateTable('jobs')
        .set({ locked_at: now })
        .where('id', 'in', ids)
        .where('locked_by', '=', worker)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    retryLater: async (trx: Kysely<DB>, id: number, worker: string, error: string, runAt: string, now: string): Promise<boolean> => {
      const result = await trx
        .updateTable('jobs')
        .set({ locked_by: null, locked_at: null, last_error: error, run_at: runAt, updated_at: now })
        .where('id', '=', id)
        .where('locked_by', '=', worker)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Marks a job failed for good; its key is released so the same work can be enqueued again. */
    failPermanently: async (trx: Kysely<DB>, id: number, owner: LockOwner, error: string, now: string): Promise<boolean> => {
      let query = trx
        .updateTable('jobs')
        .set({ locked_by: null, locked_at: null, key: null, last_error: error, failed_at: now, updated_at: now })
        .where('id', '=', id)
        .where('failed_at', 'is', null);
      query = 'worker' in owner ? query.where('locked_by', '=', owner.worker) : query.where('locked_at', '<', owner.lockedBefore);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /**
     * Returns jobs whose lock is older than the lease (their worker died) to the queue, when they have
     * attempts left. The ones that used their last attempt are left for `staleExhausted`.
     */
    sweep: async (lockedBefore: string, now: string): Promise<number> => {
      const result = await db
        .updateTable('jobs')
        .set({ locked_by: null, locked_at: null, last_error: 'lease expired: the worker stopped before finishing', updated_at: now })
        .where('locked_at', '<', lockedBefore)
        .where('failed_at', 'is', null)
        .whereRef('attempts', '<', 'max_attempts')
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** Jobs whose worker died during their last allowed attempt. */
    staleExhausted: async (lockedBefore: string, limit: number): Promise<JobRow[]> =>
      db
        .selectFrom('jobs')
        .selectAll()
        .where('locked_at', '<', lockedBefore)
        .where('failed_at', 'is', null)
        .whereRef('attempts', '>=', 'max_attempts')
        .orderBy('id')
        .limit(limit)
        .execute(),

    /** Hands jobs a stopping worker could not finish back to the queue, to run again at once. */
    release: async (worker: string, ids: number[], error: string, now: string): Promise<number> => {
      if (ids.length === 0) return 0;
      const result = await db
        .updateTable('jobs')
        .set({ locked_by: null, locked_at: null, last_error: error, run_at: now, updated_at: now })
        .where('id', 'in', ids)
        .where('locked_by', '=', worker)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /** When the next pending job becomes due, to sleep exactly that long. */
    nextRunAt: async (): Promise<string | undefined> =>
      (
        await db
          .selectFrom('jobs')
          .select((eb) => eb.fn.min('run_at').as('next'))
          .where('failed_at', 'is', null)
          .where('locked_at', 'is', null)
          .executeTakeFirst()
      )?.next ?? undefined,

    oldestDueAt: async (now: string): Promise<string | undefined> =>
      (
        await db
          .selectFrom('jobs')
          .select((eb) => eb.fn.min('run_at').as('oldest'))
          .where('failed_at', 'is', null)
          .where('locked_at', 'is', null)
          .where('run_at', '<=', now)
          .executeTakeFirst()
      )?.oldest ?? undefined,

    findById: async (id: number): Promise<JobRow | undefined> => db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst(),

    /** Removes jobs that failed for good before `before`; returns how many. */
    pruneFailed: async (before: string): Promise<number> => {
      const result = await db.deleteFrom('jobs').where('failed_at', 'is not', null).where('failed_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** PostgreSQL wakes listening workers when the enqueuing transaction commits. */
    notify: async (trx: Kysely<DB>): Promise<void> => {
      if (dialect === 'postgres') await sql`select pg_notify(${NOTIFY_CHANNEL}, '')`.execute(trx);
    },
  };
}

export type JobRepository = ReturnType<typeof createJobRepository>;
