import type { Kysely } from 'kysely';
import type { ListRequest, Page } from '../../db/list.ts';
import type { DB } from '../../db/schema.ts';
import { audit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.ts';
import type { EventSink } from '../../platform/lifecycle.ts';
import { requireOneOf, requirePermission } from '../../platform/permissions.ts';
import { openWorkflow } from '../workflows/open.ts';
import { COURSE_EVENTS } from './lifecycle.ts';
import { formatMoney, minorDigits, parseMoney } from './money.ts';
import type { CourseFilter, CourseRepository, CourseRow } from './repository.ts';
import type { Course, CourseCreate, CourseSort, CourseState, CourseTransition, CourseUpdate } from './schemas.ts';

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

export interface CourseServiceDeps {
  db: Kysely<DB>;
  courses: CourseRepository;
  outbox: EventSink;
}

export function createCourseService(deps: CourseServiceDeps) {
  const { courses } = deps;

  async function find(slug: string, executor?: Kysely<DB>): Promise<CourseRow> {
    const row = await courses.findBySlug(slug, executor);
    if (!row) throw new NotFoundError();
    return row;
  }

  return {
    /** One page of the list with its total. */
    async list(_ctx: ServiceContext, filter: CourseFilter, list: ListRequest<CourseSort>): Promise<Page<Course>> {
      const { items, total } = await courses.list(filter, list);
      return { items: items.map(presentCourse), total };
    },

    /** A course by slug; an unknown slug is a 404. */
    async get(_ctx: ServiceContext, slug: string): Promise<Course> {
      return presentCourse(await find(slug));
    },

    /**
     * Creates a course in `draft` (`academy admin courses create`). The input is checked against
     * CourseCreate; what needs the currency or the database (the price's decimals, a slug or code
     * taken) is checked here.
     */
    async create(ctx: ServiceContext, input: CourseCreate): Promise<Course> {
      requirePermission(ctx, 'catalogue.manage');
      const errors: Record<string, string[]> = {};
      const priceMinor = priceOf(input, errors);
      const taken = await courses.taken(input.slug, input.code);
      if (taken.slug) errors.slug = [`The slug field must be unique: a course with the slug "${input.slug}" exists already.`];
      if (taken.code) errors.code = [`The code field must be unique: a course with the code "${input.code}" exists already.`];
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);

      const now = ctx.clock.now().toISOString();
      const row = await deps.db.transaction().execute(async (trx) => {
        const created = await courses.insert(trx, {
          slug: input.slug,
          code: input.code,
          title: input.title.trim(),
          description: input.description?.trim() ?? null,
          price_minor: priceMinor as number,
          currency: input.currency,
          language: Intl.getCanonicalLocales(input.language)[0] as string,
          status: 'draft',
          published_at: null,
          archived_at: null,
          created_at: now,
          updated_at: now,
        });
        await audit.record(trx, ctx, {
          action: 'course.created',
          subject: { type: 'course', id: created.id },
          changes: audit.changes(null, presentCourse(created)),
        });
        return created;
      });
      return presentCourse(row);
    },

    /**
     * Changes a course's own fields (the console's edit form): all but its slug and code, checked as
     * a new course's are. Its state and workflow are not touched.
     */
    async update(ctx: ServiceContext, slug: string, input: CourseUpdate): Promise<Course> {
      requirePermission(ctx, 'catalogue.manage');
      const errors: Record<string, string[]> = {};
      const priceMinor = priceOf(input, errors);
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      const row = await deps.db.transaction().execute(async (trx) => {
        const before = await find(slug, trx);
        const after = await courses.update(trx, before.id, {
          title: input.title.trim(),
          description: input.description?.trim() || null,
          price_minor: priceMinor as number,
          currency: input.currency,
          language: Intl.getCanonicalLocales(input.language)[0] as string,
          updated_at: ctx.clock.now().toISOString(),
        });
        await audit.record(trx, ctx, {
          action: 'course.updated',
          subject: { type: 'course', id: before.id },
          changes: audit.changes(presentCourse(before), presentCourse(after)),
        });
        return after;
      });
      return presentCourse(row);
    },

    /**
     * Moves a course through the publication workflow to `to_state` (`academy admin courses
     * transition`, the console). A state the workflow does not know is a 422; one it does not allow
     * from the current state a 409 `invalid_transition`. Approving (→ approved) and sending back
     * (review → draft) need `courses.approve`; the other moves `catalogue.manage`.
     */
    async transition(ctx: ServiceContext, slug: string, { to_state: to }: CourseTransition): Promise<Course> {
      // Someone who may make no move at all is refused before anything is read.
      requireOneOf(ctx, ['catalogue.manage', 'courses.approve']);
      return deps.db.transaction().execute(async (trx) => {
        const course = await find(slug, trx);
        const from = course.status as CourseState;
        const move = courses.lifecycle.moveTo(from, to);
        if (!move) throw new ConflictError('invalid_transition', `A course cannot move from ${from} to ${to}.`);
        // Approving or sending back a course under review is the approvers' decision; every other
        // move is the catalogue's.
        requirePermission(ctx, move === 'approve' || move === 'reject' ? 'courses.approve' : 'catalogue.manage');
        const now = ctx.clock.now().toISOString();
        const set: Record<string, unknown> = { updated_at: now };
        if (move === 'publish') set.published_at = now;
        if (move === 'archive') set.archived_at = now;
        const type = COURSE_EVENTS[move];
        await courses.lifecycle.apply(trx, course.id, move, {
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
        const moved = presentCourse((await courses.findById(course.id, trx)) as CourseRow);
        await audit.record(trx, ctx, {
          action: 'course.transitioned',
          subject: { type: 'course', id: course.id },
          changes: audit.changes(presentCourse(course), moved),
        });
        return moved;
      });
    },
  };
}

export type CourseService = ReturnType<typeof createCourseService>;

/** The price in minor units, or null with its message in `errors` when the currency takes no such amount. */
function priceOf(input: { price: string; currency: string }, errors: Record<string, string[]>): number | null {
  const priceMinor = parseMoney(input.price, input.currency);
  if (priceMinor === null) {
    const digits = minorDigits(input.currency);
    const example = formatMoney(450 * 10 ** digits, input.currency);
    const rule = digits === 0 ? 'be a whole number' : `have at most ${digits} decimal${digits === 1 ? '' : 's'}`;
    errors.price = [`The price field must ${rule} for ${input.currency}, e.g. "${example}".`];
  }
  return priceMinor;
}
