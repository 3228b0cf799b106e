import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { audit } from '../../platform/audit.ts';
import { asSystem, type ServiceContext } from '../../platform/context.ts';
import { defineLifecycle, type EventSink } from '../../platform/lifecycle.ts';
import type { SessionCounts, SessionRepository, SessionRow } from '../sessions/repository.ts';
import type { EnrolmentRepository, EnrolmentRow } from './repository.ts';
import type { EnrolmentStatus } from './schemas.ts';

/**
 * An enrolment's status: `waitlisted` → `confirmed` (promotion to a freed seat); `confirmed` or
 * `waitlisted` → `cancelled` (final). Creation decides the first status; completion is recorded on a
 * confirmed enrolment without changing it.
 */
export const enrolmentLifecycle = defineLifecycle<EnrolmentStatus, 'promote' | 'cancel'>({
  table: 'enrolments',
  moves: {
    promote: { from: ['waitlisted'], to: 'confirmed' },
    cancel: { from: ['confirmed', 'waitlisted'], to: 'cancelled' },
  },
});

/** What the enrolment events carry. */
export function enrolmentPayload(
  row: Pick<EnrolmentRow, 'id' | 'user_id' | 'session_id' | 'course_id'>,
  extra: Record<string, unknown> = {},
) {
  return { enrolment_id: row.id, student_id: row.user_id, session_id: row.session_id, course_id: row.course_id, ...extra };
}

export interface WaitlistDeps {
  enrolments: EnrolmentRepository;
  sessions: SessionRepository;
  outbox: EventSink;
}

/**
 * The seats and the waitlist of one session. Every function runs inside a transaction that locked
 * the session first (SessionRepository.lock), so one transaction at a time decides who gets a seat.
 */
export function createWaitlist(deps: WaitlistDeps) {
  return {
    /**
     * Gives free seats to the oldest waitlisted enrolments (lowest position first), each promotion
     * recorded as `enrollment.promoted`; renumbers the rest of the waitlist from 1 without gaps; and
     * writes the session's counters. `counts` are the session's counts after the caller's own change.
     * Each promotion is the system's in the audit trail, with the request of the change that freed the seat.
     */
    async fillSeats(trx: Kysely<DB>, ctx: ServiceContext, session: SessionRow, counts: SessionCounts, now: string): Promise<SessionCounts> {
      const result = { ...counts };
      const waiting = await deps.enrolments.waitlist(trx, session.id);
      const seats = Math.max(0, session.max_participants - result.confirmed_count);
      const promoted = waiting.slice(0, seats);
      for (const entry of promoted) {
        const row = (await deps.enrolments.findById(entry.id, trx)) as EnrolmentRow;
        await enrolmentLifecycle.apply(trx, entry.id, 'promote', {
          set: { waitlist_position: null, confirmed_at: now, updated_at: now },
          event: {
            sink: deps.outbox,
            type: 'enrollment.promoted',
            payload: enrolmentPayload(row, { status: 'confirmed', previous_waitlist_position: entry.waitlist_position }),
          },
        });
        await audit.record(trx, asSystem(ctx), {
          action: 'enrolment.promoted',
          subject: { type: 'enrolment', id: entry.id },
          changes: {
            status: [row.status, 'confirmed'],
            waitlist_position: [entry.waitlist_position, null],
            confirmed_at: [row.confirmed_at, now],
          },
        });
      }
      result.confirmed_count += promoted.length;
      result.waitlisted_count -= promoted.length;
      await this.renumber(trx, session.id, now, waiting.slice(promoted.length));
      await deps.sessions.update(trx, session.id, { ...result, updated_at: now });
      return result;
    },

    /** Positions 1, 2, 3… in waitlist order; only the enrolments whose position moves are touched. */
    async renumber(
      trx: Kysely<DB>,
      sessionId: number,
      now: string,
      waiting?: { id: number; waitlist_position: number | null }[],
    ): Promise<void> {
      const list = waiting ?? (await deps.enrolments.waitlist(trx, sessionId));
      for (const [index, entry] of list.entries()) {
        if (entry.waitlist_position !== index + 1) {
          await deps.enrolments.update(trx, entry.id, { waitlist_position: index + 1, updated_at: now });
        }
      }
    },
  };
}

export type Waitlist = ReturnType<typeof createWaitlist>;
