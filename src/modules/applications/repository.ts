import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { CourseApplication } from './schemas.ts';

export interface CourseRef {
  id: number;
  slug: string;
  status: string;
}

export interface NewApplication {
  user_id: number;
  course_id: number;
  source: 'admin' | 'import';
  now: string;
}

/** Keeps IN lists and multi-row inserts well below both databases' parameter limits. */
export const CHUNK = 500;

export function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export function createApplicationRepository(db: Kysely<DB>) {
  const view = (executor: Kysely<DB>) =>
    executor
      .selectFrom('course_applications')
      .innerJoin('courses', 'courses.id', 'course_applications.course_id')
      .select([
        'course_applications.id',
        'course_applications.user_id as student_id',
        'course_applications.course_id',
        'courses.slug as course',
        'course_applications.source',
        'course_applications.created_at',
        'course_applications.updated_at',
      ]);
  const decode = (row: Omit<CourseApplication, 'source'> & { source: string }): CourseApplication => ({
    ...row,
    source: row.source as CourseApplication['source'],
  });

  return {
    /** Courses by slug (the courses table is the courses module's; only what applications need). */
    coursesBySlug: async (slugs: readonly string[]): Promise<Map<string, CourseRef>> => {
      const found = new Map<string, CourseRef>();
      for (const chunk of chunks([...new Set(slugs)])) {
        const rows = await db.selectFrom('courses').select(['id', 'slug', 'status']).where('slug', 'in', chunk).execute();
        for (const row of rows) found.set(row.slug, row);
      }
      return found;
    },

    find: async (executor: Kysely<DB>, userId: number, courseId: number): Promise<CourseApplication | undefined> => {
      const row = await view(executor)
        .where('course_applications.user_id', '=', userId)
        .where('course_applications.course_id', '=', courseId)
        .executeTakeFirst();
      return row && decode(row);
    },

    /** The (user, course) pairs among these users that have an application, as `user:course` keys. */
    existingPairs: async (executor: Kysely<DB>, userIds: readonly number[]): Promise<Set<string>> => {
      const pairs = new Set<string>();
      for (const chunk of chunks([...new Set(userIds)])) {
        const rows = await executor
          .selectFrom('course_applications')
          .select(['user_id', 'course_id'])
          .where('user_id', 'in', chunk)
          .execute();
        for (const row of rows) pairs.add(`${row.user_id}:${row.course_id}`);
      }
      return pairs;
    },

    /**
     * Inserts the applications that do not exist yet and returns the ids of those it inserted; an
     * existing pair (or one inserted concurrently) is skipped by the unique constraint.
     */
    insertMissing: async (trx: Kysely<DB>, applications: readonly NewApplication[]) => {
      if (applications.length === 0) return [];
      return trx
        .insertInto('course_applications')
        .values(
          applications.map((a) => ({ user_id: a.user_id, course_id: a.course_id, source: a.source, created_at: a.now, updated_at: a.now })),
        )
        .onConflict((oc) => oc.columns(['user_id', 'course_id']).doNothing())
        .returning(['id', 'user_id', 'course_id'])
        .execute();
    },

    list: async (limit: number): Promise<{ items: CourseApplication[]; total: number }> => {
      const [rows, count] = await Promise.all([
        view(db).orderBy('course_applications.id', 'desc').limit(limit).execute(),
        db
          .selectFrom('course_applications')
          .select((eb) => eb.fn.countAll<number | string>().as('total'))
          .executeTakeFirstOrThrow(),
      ]);
      return { items: rows.map(decode), total: Number(count.total) };
    },
  };
}

export type ApplicationRepository = ReturnType<typeof createApplicationRepository>;
