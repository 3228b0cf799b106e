import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { bool } from '../../db/codec.ts';
import type { Dialect } from '../../db/database.ts';
import { type ListRequest, listPage, type Page } from '../../db/list.ts';
import { forUpdate } from '../../db/locks.ts';
import { prepare } from '../../db/prepared.ts';
import type { DB, TrainingSessionTable } from '../../db/schema.ts';
import type { ChangeFeed } from '../../platform/changes.ts';
import { sessionLifecycle } from './lifecycle.ts';
import type { SessionSort } from './schemas.ts';

/** A session as stored, decoded, with its course's slug. */
export type SessionRow = Omit<Selectable<TrainingSessionTable>, 'waitlist_enabled'> & { waitlist_enabled: boolean; course_slug: string };

type Stored = Selectable<TrainingSessionTable> & { course_slug: string };
const decode = (row: Stored): SessionRow => ({ ...row, waitlist_enabled: bool(row.waitlist_enabled) });

/** The enrolment counters kept on the session row. */
export interface SessionCounts {
  confirmed_count: number;
  waitlisted_count: number;
  completed_count: number;
}

/**
 * Sessions as stored. Every write of a session row announces it on the change feed (`changes`), in its
 * transaction: the session read is kept in memory (src/modules/sessions/routes.ts).
 */
export function createSessionRepository(db: Kysely<DB>, dialect: Dialect, changes: ChangeFeed) {
  const withCourse = (executor: Kysely<DB>) =>
    executor
      .selectFrom('training_sessions')
      .innerJoin('courses', 'courses.id', 'training_sessions.course_id')
      .selectAll('training_sessions')
      .select('courses.slug as course_slug');

  const inCourse = prepare(db, withCourse(db).where('training_sessions.id', '=', 0).where('courses.slug', '=', ''));

  const sort = {
    id: 'training_sessions.id',
    starts_on: 'training_sessions.starts_on',
    updated_at: 'training_sessions.updated_at',
  } as const;

  return {
    /** The session workflow, each move announced. */
    lifecycle: sessionLifecycle.announcedOn(changes),

    /** The sessions of one course, or of every course. */
    list: async (filter: { courseId?: number | undefined }, list: ListRequest<SessionSort>): Promise<Page<SessionRow>> => {
      let query = withCourse(db);
      if (filter.courseId !== undefined) query = query.where('training_sessions.course_id', '=', filter.courseId);
      const page = await listPage(db, query, list, { sort, id: 'training_sessions.id', updatedAt: 'training_sessions.updated_at' });
      return { items: page.items.map(decode), total: page.total };
    },

    /**
     * A session by id, only when it belongs to the course with `slug`. On the path of every nested
     * read (the session, its assessments, resources and meetings), so compiled once.
     */
    findInCourse: async (slug: string, id: number): Promise<SessionRow | undefined> => {
      const [row] = await inCourse(id, slug);
      return row && decode(row);
    },

    findById: async (id: number, executor: Kysely<DB> = db): Promise<SessionRow | undefined> => {
      const row = await withCourse(executor).where('training_sessions.id', '=', id).executeTakeFirst();
      return row && decode(row);
    },

    /**
     * Reads a session at the start of a transaction that changes its enrolments, holding it until the
     * transaction ends (a row lock on PostgreSQL; SQLite's transactions already run one at a time), so
     * that seat counts and waitlist positions are decided by one transaction at a time.
     */
    lock: async (trx: Kysely<DB>, id: number): Promise<SessionRow | undefined> => {
      const locked = await forUpdate(trx.selectFrom('training_sessions').select('id').where('id', '=', id), dialect).executeTakeFirst();
      if (!locked) return undefined;
      const row = await withCourse(trx).where('training_sessions.id', '=', id).executeTakeFirst();
      return row && decode(row);
    },

    insert: async (trx: Kysely<DB>, values: Insertable<TrainingSessionTable>): Promise<number> => {
      const { id } = await trx.insertInto('training_sessions').values(values).returning('id').executeTakeFirstOrThrow();
      await changes.announce(trx);
      return id;
    },

    update: async (trx: Kysely<DB>, id: number, values: Updateable<TrainingSessionTable>): Promise<void> => {
      await trx.updateTable('training_sessions').set(values).where('id', '=', id).execute();
      await changes.announce(trx);
    },

    /** Sessions whose registration opening time has come while they are still only scheduled. */
    dueToOpen: async (now: string): Promise<number[]> =>
      (
        await db
          .selectFrom('training_sessions')
          .select('id')
          .where('workflow_state', '=', 'scheduled')
          .where('registration_opens_at', 'is not', null)
          .where('registration_opens_at', '<=', now)
          .orderBy('id')
          .execute()
      ).map((r) => r.id),

    /** Sessions open for registration whose first day has come. */
    dueToStart: async (today: string): Promise<number[]> =>
      (
        await db
          .selectFrom('training_sessions')
          .select('id')
          .where('workflow_state', '=', 'open_for_registration')
          .where('starts_on', '<=', today)
          .orderBy('id')
          .execute()
      ).map((r) => r.id),

    /** Sessions in progress whose last day has passed. */
    dueToComplete: async (today: string): Promise<number[]> =>
      (
        await db
          .selectFrom('training_sessions')
          .select('id')
          .where('workflow_state', '=', 'in_progress')
          .where('ends_on', '<', today)
          .orderBy('id')
          .execute()
      ).map((r) => r.id),
  };
}

export type SessionRepository = ReturnType<typeof createSessionRepository>;
