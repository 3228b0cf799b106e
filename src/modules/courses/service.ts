import type { Kysely } from 'kysely';
import type { ListRequest, Page } from '../../db/list.ts';
import type { DB } from '../../db/schema.ts';
import { type ChangeFeed, createReadCache } from '../../platform/changes.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { ConflictError, NotFoundError } from '../../platform/errors.ts';
import { Fields } from '../../platform/fields.ts';
import type { EventSink } from '../../platform/lifecycle.ts';
import type { Platform } from '../../platform/platform.ts';
import { openWorkflow } from '../workflows/open.ts';
import { COURSE_EVENTS, courseLifecycle } from './lifecycle.ts';
import { formatMoney, isCurrency, parseMoney } from './money.ts';
import { type CourseFilter, type CourseRepository, type CourseRow, createCourseRepository } from './repository.ts';
import { COURSE_STATES, type Course, type CourseSort, type CourseState } from './schemas.ts';

export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const CODE = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const CREATE_FIELDS = ['slug', 'title', 'code', 'price', 'currency', 'language', 'description'] as const;

export function presentCourse(row: CourseRow): Course {
  return {
    id: row.id,
    slug: row.slug,
    code: row.code,
    title: row.title,
    description: row.description,
    price: formatMoney(Number(row.price_minor), row.currency),
    currency: row.currency,
    language: row.language,
    status: row.status as CourseState,
    published_at: row.published_at,
    archived_at: row.archived_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function canonicalLanguage(tag: string): string | null {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    return canonical ?? null;
  } catch {
    return null;
  }
}

export interface CourseServiceDeps {
  db: Kysely<DB>;
  courses: CourseRepository;
  outbox: EventSink;
  /** Told of every change of a course (create, transition), which empties the list's cache in every process. */
  changes: ChangeFeed;
}

/**
 * Pages of the course list kept in memory (GET /courses is read far more often than the catalogue
 * changes): at most this many pages, of at most ACADEMY_MAX_PAGE_SIZE courses each. Clients ask for
 * a handful of pages; a flood of distinct ones (every `per_page`, `sort` and `updated_since`) only
 * empties the cache when it is full, so memory stays bounded by this number.
 */
const CACHED_PAGES = 64;

/** The cache key of one page of the list: its filter, order, window and `updated_since`, as given. */
function pageKey(filter: CourseFilter, list: ListRequest<CourseSort>): string {
  return [filter.active, list.sort, list.direction, list.page.page, list.page.perPage, list.updatedSince].join('\u001f');
}

export function createCourseService(deps: CourseServiceDeps) {
  const { courses } = deps;
  // Emptied whenever the change feed moves: a course written here or in another process (the
  // administration, a seed) announces it in its transaction. Totals stay exact: a page and its total
  // are read and kept together.
  const pages = createReadCache<string, Page<Course>>(deps.changes, { max: CACHED_PAGES });

  async function find(slug: string, executor?: Kysely<DB>): Promise<CourseRow> {
    const row = await courses.findBySlug(slug, executor);
    if (!row) throw new NotFoundError();
    return row;
  }

  return {
    /** One page of the list with its total; synchronous when cached (see createReadCache). */
    list(_ctx: ServiceContext, filter: CourseFilter, list: ListRequest<CourseSort>): Page<Course> | Promise<Page<Course>> {
      return pages.get(pageKey(filter, list), async () => {
        const { items, total } = await courses.list(filter, list);
        return { items: items.map(presentCourse), total };
      }) as Page<Course> | Promise<Page<Course>>;
    },

    /** A course by slug; an unknown slug is a 404. */
    async get(_ctx: ServiceContext, slug: string): Promise<Course> {
      return presentCourse(await find(slug));
    },

    /** Creates a course in `draft` (`academy admin courses create`). */
    async create(ctx: ServiceContext, data: Record<string, unknown>): Promise<Course> {
      const fields = new Fields(data, CREATE_FIELDS);
      const slug = fields.text('slug', {
        required: true,
        max: 100,
        pattern: SLUG,
        hint: 'The slug must be lowercase letters and digits in words joined by single hyphens, e.g. "project-management-101".',
      });
      const title = fields.text('title', { required: true, max: 200 });
      const code = fields.text('code', {
        required: true,
        max: 50,
        pattern: CODE,
        hint: 'The code must be letters, digits, ".", "_" or "-", e.g. "PM-101".',
      });
      const description = fields.text('description', { max: 10_000 });
      const currency = fields.text('currency', { required: true });
      if (currency && !isCurrency(currency)) fields.add('currency', 'The currency must be an ISO 4217 code, e.g. EUR.');
      const price = fields.text('price', { required: true, max: 20 });
      let priceMinor: number | null = null;
      if (price && currency && isCurrency(currency)) {
        priceMinor = parseMoney(price, currency);
        if (priceMinor === null) {
          fields.add(
            'price',
            `The price must be a non-negative decimal string with at most the ${currency} minor-unit digits, e.g. "450.00".`,
          );
        }
      } else if (price !== undefined && price !== null && !/^\d+(\.\d+)?$/.test(price)) {
        fields.add('price', 'The price must be a non-negative decimal string, e.g. "450.00".');
      }
      const languageTag = fields.text('language', { required: true, max: 35 });
      const language = languageTag ? canonicalLanguage(languageTag) : null;
      if (languageTag && !language) fields.add('language', 'The language must be a BCP 47 language tag, e.g. en or de-AT.');
      if (slug || code) {
        const taken = await courses.taken(slug ?? '', code ?? '');
        if (taken.slug) fields.add('slug', `A course with the slug "${slug}" exists already.`);
        if (taken.code) fields.add('code', `A course with the code "${code}" exists already.`);
      }
      fields.check();

      const now = ctx.clock.now().toISOString();
      const row = await deps.db.transaction().execute(async (trx) => {
        await deps.changes.announce(trx);
        return courses.insert(trx, {
          slug: slug as string,
          code: code as string,
          title: title as string,
          description: description ?? null,
          price_minor: priceMinor as number,
          currency: currency as string,
          language: language as string,
          status: 'draft',
          published_at: null,
          archived_at: null,
          created_at: now,
          updated_at: now,
        });
      });
      return presentCourse(row);
    },

    /**
     * Moves a course through the publication workflow to `to_state` (`academy admin courses
     * transition`). A state the workflow does not know is a 422; one it does not allow from the
     * current state a 409 `invalid_transition`.
     */
    async transition(ctx: ServiceContext, slug: string, data: Record<string, unknown>): Promise<Course> {
      const fields = new Fields(data, ['to_state']);
      const to = fields.oneOf('to_state', COURSE_STATES, { required: true });
      fields.check();
      return deps.db.transaction().execute(async (trx) => {
        const course = await find(slug, trx);
        const from = course.status as CourseState;
        const move = courseLifecycle.moveTo(from, to as CourseState);
        if (!move) throw new ConflictError('invalid_transition', `A course cannot move from ${from} to ${to}.`);
        const now = ctx.clock.now().toISOString();
        const set: Record<string, unknown> = { updated_at: now };
        if (move === 'publish') set.published_at = now;
        if (move === 'archive') set.archived_at = now;
        const type = COURSE_EVENTS[move];
        await deps.changes.announce(trx);
        await courseLifecycle.apply(trx, course.id, move, {
          set,
          // A course submitted for review opens its approval (unless one is still open).
          ...(move === 'submit'
            ? {
                effects: (t) =>
                  openWorkflow(t, { workflow: 'course_approval', subjectType: 'course', subjectId: course.id, now }).then(() => {}),
              }
            : {}),
          ...(type
            ? {
                event: {
                  sink: deps.outbox,
                  type,
                  payload: { course_id: course.id, slug: course.slug, code: course.code, title: course.title, status: to, at: now },
                },
              }
            : {}),
        });
        return presentCourse((await courses.findById(course.id, trx)) as CourseRow);
      });
    },
  };
}

export type CourseService = ReturnType<typeof createCourseService>;

export function courseServiceFor(platform: Platform): CourseService {
  return createCourseService({
    db: platform.database.db,
    courses: createCourseRepository(platform.database.db),
    outbox: platform.outbox,
    changes: platform.changes,
  });
}
