import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { type ListRequest, listPage, type Page } from '../../db/list.ts';
import type { CourseTable, DB } from '../../db/schema.ts';
import { searchText, textMatch } from '../../db/search.ts';
import type { ChangeFeed } from '../../platform/changes.ts';
import { courseLifecycle } from './lifecycle.ts';
import type { CourseSort, CourseState } from './schemas.ts';

export type CourseRow = Selectable<CourseTable>;

export interface CourseFilter {
  /** true: published only; false: every other state. */
  active?: boolean | undefined;
  /** Only courses in this publication state (the console's filter). */
  status?: CourseState | undefined;
  /** Only courses whose title, code or slug contains this text, in any letter case (the console's search). */
  search?: string | undefined;
}

/**
 * Courses as stored. Every write of a course announces it on the change feed (`changes`) in its
 * transaction, so that the course list kept in every process (src/http/kept.ts) lets it go.
 */
export function createCourseRepository(db: Kysely<DB>, changes: ChangeFeed, dialect: Dialect) {
  return {
    /** The publication workflow, each move announced. */
    lifecycle: courseLifecycle.announcedOn(changes),

    list: async (filter: CourseFilter, list: ListRequest<CourseSort>): Promise<Page<CourseRow>> => {
      let query = db.selectFrom('courses').selectAll();
      if (filter.active !== undefined) query = query.where('status', filter.active ? '=' : '<>', 'published');
      if (filter.status !== undefined) query = query.where('status', '=', filter.status);
      const text = searchText(filter.search ?? '');
      // The trigram index of GET /search (ADR 0009) answers it.
      if (text !== '') query = query.where(textMatch(dialect, 'courses', text));
      return listPage(db, query, list, {
        sort: { id: 'id', title: 'title', price: 'price_minor', created_at: 'created_at', updated_at: 'updated_at' },
      });
    },

    findBySlug: async (slug: string, executor: Kysely<DB> = db): Promise<CourseRow | undefined> =>
      executor.selectFrom('courses').selectAll().where('slug', '=', slug).executeTakeFirst(),

    findById: async (id: number, executor: Kysely<DB> = db): Promise<CourseRow | undefined> =>
      executor.selectFrom('courses').selectAll().where('id', '=', id).executeTakeFirst(),

    /** Which of a slug and a code are taken already (both unique). */
    taken: async (slug: string, code: string): Promise<{ slug: boolean; code: boolean }> => {
      const rows = await db
        .selectFrom('courses')
        .select(['slug', 'code'])
        .where((eb) => eb.or([eb('slug', '=', slug), eb('code', '=', code)]))
        .execute();
      return { slug: rows.some((r) => r.slug === slug), code: rows.some((r) => r.code === code) };
    },

    /** Changes a course's own fields, announced like every write of a course. */
    update: async (trx: Kysely<DB>, id: number, values: Updateable<CourseTable>): Promise<CourseRow> => {
      const row = await trx.updateTable('courses').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
      await changes.announce(trx);
      return row;
    },

    insert: async (trx: Kysely<DB>, values: Insertable<CourseTable>): Promise<CourseRow> => {
      const row = await trx.insertInto('courses').values(values).returningAll().executeTakeFirstOrThrow();
      await changes.announce(trx);
      return row;
    },
  };
}

export type CourseRepository = ReturnType<typeof createCourseRepository>;
