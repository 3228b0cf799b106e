import type { Kysely } from 'kysely';
import type { ListRequest, Page } from '../../db/list.ts';
import type { DB } from '../../db/schema.ts';
import { audit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.ts';
import type { EventSink } from '../../platform/lifecycle.ts';
import { requirePermission } from '../../platform/permissions.ts';
import { localDate } from '../../platform/time.ts';
import type { CourseRepository } from '../courses/repository.ts';
import type { Waitlist } from '../enrolments/waitlist.ts';
import type { OrganizationRepository } from '../organization/repository.ts';
import { SESSION_EVENTS, type SessionMove } from './lifecycle.ts';
import { presentSession } from './present.ts';
import type { SessionRepository, SessionRow } from './repository.ts';
import type { Session, SessionCreate, SessionSort, SessionState, SessionTransition, SessionUpdate } from './schemas.ts';

export interface SessionServiceDeps {
  db: Kysely<DB>;
  sessions: SessionRepository;
  courses: CourseRepository;
  organization: OrganizationRepository;
  waitlist: Waitlist;
  outbox: EventSink;
}

/** What a session's workflow events carry. */
function sessionPayload(row: SessionRow, state: SessionState, at: string) {
  return {
    session_id: row.id,
    course_id: row.course_id,
    course: row.course_slug,
    name: row.name,
    workflow_state: state,
    starts_on: row.starts_on,
    ends_on: row.ends_on,
    at,
  };
}

/** The instant `value` in UTC, as stored; null and absence stay as they are. */
function utc<T extends string | null | undefined>(value: T): T {
  return (typeof value === 'string' ? new Date(value).toISOString() : value) as T;
}

/** The rules across the date and time fields, with the stored values standing in for absent ones. */
function checkDates(
  errors: Record<string, string[]>,
  merged: Pick<SessionRow, 'starts_on' | 'ends_on' | 'registration_opens_at' | 'registration_closes_at'>,
): void {
  if (merged.ends_on < merged.starts_on) errors.ends_on = ['The ends_on field must be on or after starts_on.'];
  const { registration_opens_at: opens, registration_closes_at: closes } = merged;
  if (opens && closes && Date.parse(closes) <= Date.parse(opens)) {
    errors.registration_closes_at = ['The registration_closes_at field must be after registration_opens_at.'];
  }
}

export function createSessionService(deps: SessionServiceDeps) {
  const { sessions } = deps;

  /**
   * Applies a workflow move inside `trx`, with its event: `apply` answers a move the state does not
   * allow with a 409; `tryApply` (the automatic moves) returns false instead.
   */
  async function move(trx: Kysely<DB>, row: SessionRow, name: SessionMove, now: string, strict = true): Promise<boolean> {
    const to = sessions.lifecycle.moves[name].to;
    const type = SESSION_EVENTS[name];
    const options = {
      set: { updated_at: now },
      ...(type ? { event: { sink: deps.outbox, type, payload: sessionPayload(row, to, now) } } : {}),
    };
    let moved = true;
    if (strict) await sessions.lifecycle.apply(trx, row.id, name, options);
    else moved = await sessions.lifecycle.tryApply(trx, row.id, name, options);
    return moved;
  }

  async function moveTo(trx: Kysely<DB>, row: SessionRow, to: SessionState, now: string): Promise<void> {
    const from = row.workflow_state as SessionState;
    const name = sessions.lifecycle.moveTo(from, to);
    if (!name) throw new ConflictError('invalid_transition', `A session cannot move from ${from} to ${to}.`);
    await move(trx, row, name, now);
  }

  async function find(id: number, executor?: Kysely<DB>): Promise<SessionRow> {
    const row = await sessions.findById(id, executor);
    if (!row) throw new NotFoundError();
    return row;
  }

  return {
    /** The sessions of the course with `slug` (a 404 for an unknown course). */
    async list(ctx: ServiceContext, slug: string, list: ListRequest<SessionSort>): Promise<Page<Session>> {
      const course = await deps.courses.findBySlug(slug);
      if (!course) throw new NotFoundError();
      return this.listAll(ctx, { courseId: course.id }, list);
    },

    async listAll(ctx: ServiceContext, filter: { courseId?: number }, list: ListRequest<SessionSort>): Promise<Page<Session>> {
      const { items, total } = await sessions.list(filter, list);
      const now = ctx.clock.now();
      return { items: items.map((row) => presentSession(row, now)), total };
    },

    /**
     * The session `id` of the course with `slug`, as stored: the parent of the nested resources.
     * A session of another course is the same 404 as a missing one.
     */
    async resolve(_ctx: ServiceContext, slug: string, id: number): Promise<SessionRow> {
      const row = await sessions.findInCourse(slug, id);
      if (!row) throw new NotFoundError();
      return row;
    },

    async get(ctx: ServiceContext, slug: string, id: number): Promise<Session> {
      return presentSession(await this.resolve(ctx, slug, id), ctx.clock.now());
    },

    async getById(ctx: ServiceContext, id: number): Promise<Session> {
      return presentSession(await find(id), ctx.clock.now());
    },

    /**
     * Creates a session of a course (`academy admin sessions create`), in `draft` unless told
     * otherwise. The input is checked against SessionCreate; the course and the rules across the
     * dates are checked here.
     */
    async create(ctx: ServiceContext, input: SessionCreate): Promise<Session> {
      requirePermission(ctx, 'catalogue.manage');
      const slug = input.course.trim();
      const course = await deps.courses.findBySlug(slug);
      const opens = utc(input.registration_opens_at ?? null);
      const closes = utc(input.registration_closes_at ?? null);
      const state = input.workflow_state ?? 'draft';
      const errors: Record<string, string[]> = {};
      if (!course) errors.course = [`The course field must be the slug of a course; no course has the slug "${slug}".`];
      checkDates(errors, {
        starts_on: input.starts_on,
        ends_on: input.ends_on,
        registration_opens_at: opens,
        registration_closes_at: closes,
      });
      if (!course || Object.keys(errors).length > 0) throw new ValidationError(errors);

      const now = ctx.clock.now().toISOString();
      // Read back in the transaction: a 5xx after the commit would free the Idempotency-Key, and the
      // retry would create a second session.
      const row = await deps.db.transaction().execute(async (trx) => {
        const created = await sessions.insert(trx, {
          course_id: course.id,
          name: input.name.trim(),
          max_participants: input.max_participants,
          waitlist_enabled: input.waitlist_enabled ?? true,
          registration_opens_at: opens,
          registration_closes_at: closes,
          starts_on: input.starts_on,
          ends_on: input.ends_on,
          instructor_name: input.instructor_name?.trim() ?? null,
          workflow_state: state,
          created_at: now,
          updated_at: now,
        });
        // Created open: registration opens now, which is the event's meaning.
        const row = await find(created, trx);
        if (state === 'open_for_registration') {
          await deps.outbox.emit(trx, 'course_intake.registration_opened', sessionPayload(row, state, now));
        }
        await audit.record(trx, ctx, {
          action: 'session.created',
          subject: { type: 'session', id: row.id },
          changes: audit.changes(null, row),
        });
        return row;
      });
      return presentSession(row, ctx.clock.now());
    },

    /**
     * Changes a session (`academy admin sessions update`): any field but its course. A larger
     * `max_participants` gives the new seats to the waitlist at once; fewer seats than confirmed
     * enrolments is refused. A `workflow_state` is a workflow move, as `transition` makes it.
     */
    async update(ctx: ServiceContext, id: number, input: SessionUpdate): Promise<Session> {
      requirePermission(ctx, 'catalogue.manage');
      const { max_participants: max, workflow_state: state } = input;
      const opens = utc(input.registration_opens_at);
      const closes = utc(input.registration_closes_at);
      const now = ctx.clock.now().toISOString();
      await deps.db.transaction().execute(async (trx) => {
        const row = await sessions.lock(trx, id);
        if (!row) throw new NotFoundError();
        const merged = {
          starts_on: input.starts_on ?? row.starts_on,
          ends_on: input.ends_on ?? row.ends_on,
          registration_opens_at: opens === undefined ? row.registration_opens_at : opens,
          registration_closes_at: closes === undefined ? row.registration_closes_at : closes,
        };
        const errors: Record<string, string[]> = {};
        checkDates(errors, merged);
        if (max !== undefined && max < row.confirmed_count) {
          errors.max_participants = [
            `The max_participants field must be at least ${row.confirmed_count}: the session has ${row.confirmed_count} confirmed enrolments.`,
          ];
        }
        if (Object.keys(errors).length > 0) throw new ValidationError(errors);

        const changes = {
          ...(input.name !== undefined ? { name: input.name.trim() } : {}),
          ...(max !== undefined ? { max_participants: max } : {}),
          ...(input.waitlist_enabled !== undefined ? { waitlist_enabled: input.waitlist_enabled } : {}),
          ...(input.instructor_name !== undefined ? { instructor_name: input.instructor_name?.trim() ?? null } : {}),
          ...merged,
          updated_at: now,
        };
        await sessions.update(trx, id, changes);
        // The move's event describes the session as this update leaves it (its new name or dates).
        if (state && state !== row.workflow_state) await moveTo(trx, { ...row, ...changes }, state, now);
        if (max !== undefined && max > row.max_participants) {
          const counts = {
            confirmed_count: row.confirmed_count,
            waitlisted_count: row.waitlisted_count,
            completed_count: row.completed_count,
          };
          await deps.waitlist.fillSeats(trx, ctx, { ...row, max_participants: max }, counts, now);
        }
        const after = { ...changes, ...(state ? { workflow_state: state } : {}) };
        await audit.record(trx, ctx, { action: 'session.updated', subject: { type: 'session', id }, changes: audit.changes(row, after) });
      });
      return presentSession(await find(id), ctx.clock.now());
    },

    /**
     * Moves a session through its workflow to `to_state` (`academy admin sessions transition`); the
     * only way to cancel one. An unknown state is a 422; one the workflow does not allow from the
     * current state a 409 `invalid_transition`.
     */
    async transition(ctx: ServiceContext, id: number, { to_state: to }: SessionTransition): Promise<Session> {
      requirePermission(ctx, 'catalogue.manage');
      // Read in the transaction: a committed move always gets its answer (a retry would be a 409).
      const moved = await deps.db.transaction().execute(async (trx) => {
        const row = await sessions.lock(trx, id);
        if (!row) throw new NotFoundError();
        await moveTo(trx, row, to, ctx.clock.now().toISOString());
        await audit.record(trx, ctx, {
          action: 'session.transitioned',
          subject: { type: 'session', id },
          changes: { workflow_state: [row.workflow_state, to] },
        });
        return find(id, trx);
      });
      return presentSession(moved, ctx.clock.now());
    },

    /**
     * The automatic moves (task `sessions.advance`), by the clock and the organization's time zone:
     * scheduled → open_for_registration once `registration_opens_at` has passed; open_for_registration
     * → in_progress on `starts_on`; in_progress → completed after `ends_on`. A session behind by
     * several steps (the task did not run for a while) takes them all in one pass, in order. Each
     * move is its own transaction and conditional, so concurrent runs never move a session twice.
     */
    async advance(ctx: ServiceContext): Promise<{ opened: number; started: number; completed: number }> {
      const nowDate = ctx.clock.now();
      const now = nowDate.toISOString();
      const { timezone } = await deps.organization.get();
      const today = localDate(nowDate, timezone);
      const step = async (ids: number[], name: SessionMove) => {
        let moved = 0;
        for (const sessionId of ids) {
          const won = await deps.db.transaction().execute(async (trx) => {
            const row = await sessions.lock(trx, sessionId);
            if (!row || !(await move(trx, row, name, now, false))) return false;
            await audit.record(trx, ctx, {
              action: 'session.transitioned',
              subject: { type: 'session', id: sessionId },
              changes: { workflow_state: [row.workflow_state, sessions.lifecycle.moves[name].to] },
            });
            return true;
          });
          if (won) moved += 1;
        }
        return moved;
      };
      const opened = await step(await sessions.dueToOpen(now), 'open_registration');
      const started = await step(await sessions.dueToStart(today), 'start');
      const completed = await step(await sessions.dueToComplete(today), 'complete');
      if (opened + started + completed > 0) ctx.logger.info({ opened, started, completed, today, timezone }, 'sessions advanced');
      return { opened, started, completed };
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
