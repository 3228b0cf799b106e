import { type Kysely, type Selectable, sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { DB, JobTable } from '../../db/schema.ts';

export type JobRow = Selectable<JobTable>;

export interface NewJob {
  name: string;
  payload: string;
  key: string | null;
  run_at: string;
  max_attempts: number;
  created_at: string;
}

export function createJobRepository(db: Kysely<DB>, dialect: Dialect) {
  return {
    /** Inserts a job; with a key that is already pending, nothing is inserted and `undefined` returned. */
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
     * Claims up to `limit` due jobs for `worker`, counting the attempt. PostgreSQL skips rows other
     * workers hold (FOR UPDATE SKIP LOCKED); SQLite has one writer at a time, so the single UPDATE
     * statement is already atomic.
     */
    claim: async (worker: string, now: string, limit: number): Promise<JobRow[]> => {
      const due = db
        .selectFrom('jobs')
        .select('id')
        .where('failed_at', 'is', null)
        .where('locked_at', 'is', null)
        .where('run_at', '<=', now)
        .orderBy('run_at')
        .orderBy('id')
        .limit(limit);
      return db
        .updateTable('jobs')
        .set((eb) => ({ locked_by: worker, locked_at: now, attempts: eb('attempts', '+', 1), updated_at: now }))
        .where('id', 'in', dialect === 'postgres' ? due.forUpdate().skipLocked() : due)
        .returningAll()
        .execute();
    },

    /** Completed jobs are removed; the lock owner check keeps a swept-and-reclaimed job safe. */
    complete: async (id: number, worker: string): Promise<boolean> => {
      const result = await db.deleteFrom('jobs').where('id', '=', id).where('locked_by', '=', worker).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
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

    failPermanently: async (trx: Kysely<DB>, id: number, worker: string, error: string, now: string): Promise<boolean> => {
      const result = await trx
        .updateTable('jobs')
        .set({ locked_by: null, locked_at: null, last_error: error, failed_at: now, updated_at: now })
        .where('id', '=', id)
        .where('locked_by', '=', worker)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Returns jobs whose lock is older than the lease (their worker died) to the queue. */
    sweep: async (lockedBefore: string, now: string): Promise<number> => {
      const result = await db
        .updateTable('jobs')
        .set({ locked_by: null, locked_at: null, last_error: 'lease expired: the worker stopped before finishing', updated_at: now })
        .where('locked_at', '<', lockedBefore)
        .where('failed_at', 'is', null)
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

    /** PostgreSQL wakes listening workers when the enqueuing transaction commits. */
    notify: async (trx: Kysely<DB>): Promise<void> => {
      if (dialect === 'postgres') await sql`select pg_notify('academy_jobs', '')`.execute(trx);
    },
  };
}

export type JobRepository = ReturnType<typeof createJobRepository>;
