import type { Kysely } from 'kysely';
import type { ListRequest, Page } from '../../db/list.ts';
import type { DB } from '../../db/schema.ts';
import { audit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.ts';
import { defineLifecycle } from '../../platform/lifecycle.ts';
import { requirePermission } from '../../platform/permissions.ts';
import { endOfDay, startOfDay } from '../../platform/time.ts';
import type { OrganizationRepository } from '../organization/repository.ts';
import { sessionInCourse } from '../sessions/lookup.ts';
import type { SessionRepository } from '../sessions/repository.ts';
import type { MeetingRepository, MeetingRow } from './repository.ts';
import type { EffectiveStatus, Meeting, MeetingCreate, MeetingSort, MeetingStatus } from './schemas.ts';

/** A meeting is Scheduled until an administrator cancels it. */
export const meetingLifecycle = defineLifecycle<MeetingStatus, 'cancel'>({
  table: 'meetings',
  moves: { cancel: { from: ['Scheduled'], to: 'Cancelled' } },
});

/** When the meeting is over: its `ends_at`, else the end of `held_on` in `timeZone`. */
export function meetingEnd(row: Pick<MeetingRow, 'held_on' | 'ends_at'>, timeZone: string): Date {
  return row.ends_at ? new Date(row.ends_at) : endOfDay(row.held_on, timeZone);
}

export function effectiveStatus(row: Pick<MeetingRow, 'status' | 'held_on' | 'ends_at'>, now: Date, timeZone: string): EffectiveStatus {
  if (row.status === 'Cancelled') return 'cancelled';
  return now.getTime() >= meetingEnd(row, timeZone).getTime() ? 'completed' : 'scheduled';
}

export function presentMeeting(row: MeetingRow, now: Date, timeZone: string): Meeting {
  return {
    id: row.id,
    session_id: row.session_id,
    held_on: row.held_on,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    location: row.location,
    status: row.status as MeetingStatus,
    effective_status: effectiveStatus(row, now, timeZone),
    cancelled_at: row.cancelled_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export interface MeetingServiceDeps {
  db: Kysely<DB>;
  meetings: MeetingRepository;
  sessions: SessionRepository;
  organization: OrganizationRepository;
}

export function createMeetingService(deps: MeetingServiceDeps) {
  const timezone = async () => (await deps.organization.get()).timezone;

  async function page(sessionId: number | undefined, list: ListRequest<MeetingSort>, ctx: ServiceContext): Promise<Page<Meeting>> {
    const [{ items, total }, zone] = await Promise.all([deps.meetings.list(sessionId, list), timezone()]);
    const now = ctx.clock.now();
    return { items: items.map((row) => presentMeeting(row, now, zone)), total };
  }

  return {
    async list(ctx: ServiceContext, slug: string, sessionId: number, list: ListRequest<MeetingSort>): Promise<Page<Meeting>> {
      await sessionInCourse(deps.sessions, slug, sessionId);
      return page(sessionId, list, ctx);
    },

    async listAll(ctx: ServiceContext, sessionId: number | undefined, list: ListRequest<MeetingSort>): Promise<Page<Meeting>> {
      return page(sessionId, list, ctx);
    },

    async get(ctx: ServiceContext, slug: string, sessionId: number, id: number): Promise<Meeting> {
      await sessionInCourse(deps.sessions, slug, sessionId);
      const row = await deps.meetings.find(id, sessionId);
      if (!row) throw new NotFoundError();
      return presentMeeting(row, ctx.clock.now(), await timezone());
    },

    /**
     * Adds a class day to a session (`academy admin meetings create`). `starts_at` and `ends_at` must
     * fall on `held_on` in the organization's time zone, and `ends_at` after `starts_at` (422).
     */
    async create(ctx: ServiceContext, input: MeetingCreate): Promise<Meeting> {
      requirePermission(ctx, 'catalogue.manage');
      const { held_on: heldOn } = input;
      const startsAt = input.starts_at ? new Date(input.starts_at).toISOString() : null;
      const endsAt = input.ends_at ? new Date(input.ends_at).toISOString() : null;
      const zone = await timezone();
      const errors: Record<string, string[]> = {};
      const dayStart = startOfDay(heldOn, zone).getTime();
      const dayEnd = endOfDay(heldOn, zone).getTime();
      const onDay = (at: number, isEnd: boolean) => (isEnd ? at > dayStart && at <= dayEnd : at >= dayStart && at < dayEnd);
      for (const [field, value, isEnd] of [
        ['starts_at', startsAt, false],
        ['ends_at', endsAt, true],
      ] as const) {
        if (value && !onDay(Date.parse(value), isEnd))
          errors[field] = [`The ${field} field must be on ${heldOn} in the organization's time zone (${zone}).`];
      }
      if (startsAt && endsAt && !errors.ends_at && Date.parse(endsAt) <= Date.parse(startsAt)) {
        errors.ends_at = ['The ends_at field must be after starts_at.'];
      }
      if (!(await deps.sessions.findById(input.session_id))) {
        errors.session_id = [`The session_id field must be the id of a training session; none has the id ${input.session_id}.`];
      }
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      const now = ctx.clock.now();
      const row = await deps.meetings.insert(
        {
          session_id: input.session_id,
          held_on: heldOn,
          starts_at: startsAt,
          ends_at: endsAt,
          location: input.location?.trim() ?? null,
          status: 'Scheduled',
          cancelled_at: null,
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        },
        (trx, created) =>
          audit.record(trx, ctx, {
            action: 'meeting.created',
            subject: { type: 'meeting', id: created.id },
            changes: audit.changes(null, created),
          }),
      );
      return presentMeeting(row, now, zone);
    },

    /**
     * Cancels a scheduled meeting (`academy admin meetings cancel`). A cancelled meeting, or one that
     * has already taken place, is a 409 `invalid_transition`.
     */
    async cancel(ctx: ServiceContext, id: number): Promise<Meeting> {
      requirePermission(ctx, 'catalogue.manage');
      const zone = await timezone();
      const now = ctx.clock.now();
      const cancelled = await deps.db.transaction().execute(async (trx) => {
        const row = await deps.meetings.find(id, undefined, trx);
        if (!row) throw new NotFoundError();
        if (effectiveStatus(row, now, zone) === 'completed') {
          throw new ConflictError('invalid_transition', 'The meeting has already taken place; it cannot be cancelled.');
        }
        const at = now.toISOString();
        await meetingLifecycle.apply(trx, id, 'cancel', { set: { cancelled_at: at, updated_at: at } });
        // Read in the transaction: a committed cancellation always gets its answer.
        const cancelled = (await deps.meetings.find(id, undefined, trx)) as MeetingRow;
        await audit.record(trx, ctx, {
          action: 'meeting.cancelled',
          subject: { type: 'meeting', id },
          changes: audit.changes(row, cancelled),
        });
        return cancelled;
      });
      return presentMeeting(cancelled, now, zone);
    },
  };
}

export type MeetingService = ReturnType<typeof createMeetingService>;
