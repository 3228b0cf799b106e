import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/errors.ts';
import { type ListRequest, mapPage, type Page } from '../../db/list.ts';
import type { DB } from '../../db/schema.ts';
import { audit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.ts';
import type { EventSink } from '../../platform/lifecycle.ts';
import { requirePermission } from '../../platform/permissions.ts';
import type { SessionRepository, SessionRow } from '../sessions/repository.ts';
import type { EnrolmentFilter, EnrolmentRepository, EnrolmentRow } from './repository.ts';
import type { CompletionOutcome, Enrolment, EnrolmentCompletion, EnrolmentCreate, EnrolmentSort, EnrolmentStatus } from './schemas.ts';
import { enrolmentLifecycle, enrolmentPayload, type Waitlist } from './waitlist.ts';

/** Sessions that take no new enrolments. */
const CLOSED_STATES = ['completed', 'cancelled'];

export function presentEnrolment(row: EnrolmentRow): Enrolment {
  return {
    id: row.id,
    student_id: row.user_id,
    session_id: row.session_id,
    course_id: row.course_id,
    status: row.status as EnrolmentStatus,
    waitlist_position: row.waitlist_position,
    confirmed_at: row.confirmed_at,
    cancelled_at: row.cancelled_at,
    cancellation_reason: row.cancellation_reason,
    completion_outcome: row.completion_outcome as CompletionOutcome | null,
    completion_notes: row.completion_notes,
    completion_recorded_at: row.completion_recorded_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const countsOf = (session: SessionRow) => ({
  confirmed_count: session.confirmed_count,
  waitlisted_count: session.waitlisted_count,
  completed_count: session.completed_count,
});

export interface EnrolmentServiceDeps {
  db: Kysely<DB>;
  enrolments: EnrolmentRepository;
  sessions: SessionRepository;
  waitlist: Waitlist;
  outbox: EventSink;
}

/**
 * Enrolments with a waitlist. Every change starts by locking its session's row (SessionRepository
 * .lock), so that any number of processes enrolling into one session at once are decided one at a
 * time: the seats, the waitlist positions and the session's counters stay exact.
 */
export function createEnrolmentService(deps: EnrolmentServiceDeps) {
  const { enrolments, sessions } = deps;

  async function find(id: number, executor?: Kysely<DB>): Promise<EnrolmentRow> {
    const row = await enrolments.findById(id, executor);
    if (!row) throw new NotFoundError();
    return row;
  }

  /**
   * Runs `work` on enrolment `id` in a transaction that holds its session, reading the enrolment
   * again once the session is held (another transaction may have changed it meanwhile).
   */
  async function withSession<T>(id: number, work: (trx: Kysely<DB>, row: EnrolmentRow, session: SessionRow) => Promise<T>): Promise<T> {
    const { session_id: sessionId } = await find(id);
    return deps.db.transaction().execute(async (trx) => {
      const session = await sessions.lock(trx, sessionId);
      if (!session) throw new NotFoundError();
      return work(trx, await find(id, trx), session);
    });
  }

  return {
    async list(_ctx: ServiceContext, filter: EnrolmentFilter, list: ListRequest<EnrolmentSort>): Promise<Page<Enrolment>> {
      return mapPage(await enrolments.list(filter, list), presentEnrolment);
    },

    async get(_ctx: ServiceContext, id: number): Promise<Enrolment> {
      return presentEnrolment(await find(id));
    },

    /**
     * Enrols a student into a session (`academy admin enrolments create`): `confirmed` while seats
     * remain, else `waitlisted` at the end of the waitlist when it is enabled, else a 409 `conflict`.
     * Only students may enrol (422 on student_id), once per session while the enrolment is not
     * cancelled (409), and not into a completed or cancelled session (409). Records `enrollment.created`.
     */
    async enrol(ctx: ServiceContext, input: EnrolmentCreate): Promise<Enrolment> {
      requirePermission(ctx, 'enrolments.manage');
      const { student_id: studentId, session_id: sessionId } = input;
      if (!(await enrolments.isStudent(studentId))) {
        throw ValidationError.field(
          'student_id',
          'The student_id must be the id of a student (a user with a course application who is not staff).',
        );
      }

      const now = ctx.clock.now().toISOString();
      try {
        // The answer is read in the transaction: a connection lost after the commit must not turn into a
        // 5xx, which frees the Idempotency-Key for a retry that would then be refused as a second enrolment.
        const row = await deps.db.transaction().execute(async (trx) => {
          const session = await sessions.lock(trx, sessionId);
          if (!session) throw ValidationError.field('session_id', 'No training session has this id.');
          if (CLOSED_STATES.includes(session.workflow_state)) {
            throw new ConflictError('conflict', `The session is ${session.workflow_state}; it takes no enrolments.`);
          }
          const existing = await enrolments.live(trx, studentId, session.id);
          if (existing) throw new ConflictError('conflict', `The student is already enrolled in this session (enrolment ${existing.id}).`);

          const counts = countsOf(session);
          const seat = session.max_participants - counts.confirmed_count > 0;
          if (!seat && !session.waitlist_enabled) throw new ConflictError('conflict', 'The session is full and has no waitlist.');
          const created = await enrolments.insert(trx, {
            user_id: studentId,
            session_id: session.id,
            status: seat ? 'confirmed' : 'waitlisted',
            waitlist_position: seat ? null : counts.waitlisted_count + 1,
            confirmed_at: seat ? now : null,
            cancelled_at: null,
            cancellation_reason: null,
            completion_outcome: null,
            completion_notes: null,
            completion_recorded_at: null,
            created_at: now,
            updated_at: now,
          });
          if (seat) counts.confirmed_count += 1;
          else counts.waitlisted_count += 1;
          await sessions.update(trx, session.id, { ...counts, updated_at: now });
          const row = await find(created, trx);
          await deps.outbox.emit(
            trx,
            'enrollment.created',
            enrolmentPayload(row, { status: row.status, waitlist_position: row.waitlist_position }),
          );
          await audit.record(trx, ctx, {
            action: 'enrolment.created',
            subject: { type: 'enrolment', id: row.id },
            changes: audit.changes(null, presentEnrolment(row)),
          });
          return row;
        });
        return presentEnrolment(row);
      } catch (error) {
        // The partial unique index is the last line behind the check above.
        if (isUniqueViolation(error)) throw new ConflictError('conflict', 'The student is already enrolled in this session.');
        throw error;
      }
    },

    /**
     * Cancels an enrolment (`academy admin enrolments cancel`). A confirmed one frees its seat, which
     * goes to the oldest waitlisted enrolment (`enrollment.promoted`); a waitlisted one leaves the
     * waitlist, which closes up behind it. A cancelled or completed enrolment is a 409 `invalid_transition`.
     */
    async cancel(ctx: ServiceContext, id: number, givenReason?: string | null): Promise<Enrolment> {
      requirePermission(ctx, 'enrolments.manage');
      const reason = givenReason?.trim() || null;
      const now = ctx.clock.now().toISOString();
      // The answer is read in the transaction: once it commits, the answer is sent whatever the
      // database does next (a retry after a lost answer would be a 409).
      const cancelled = await withSession(id, async (trx, row, session) => {
        if (row.completion_recorded_at !== null) {
          throw new ConflictError('invalid_transition', 'A completed enrolment cannot be cancelled.');
        }
        await enrolmentLifecycle.apply(trx, id, 'cancel', {
          set: { cancelled_at: now, cancellation_reason: reason, waitlist_position: null, updated_at: now },
          event: {
            sink: deps.outbox,
            type: 'enrollment.cancelled',
            payload: enrolmentPayload(row, { status: 'cancelled', previous_status: row.status, reason }),
          },
        });
        const counts = countsOf(session);
        if (row.status === 'confirmed') counts.confirmed_count -= 1;
        else counts.waitlisted_count -= 1;
        const cancelled = await find(id, trx);
        await audit.record(trx, ctx, {
          action: 'enrolment.cancelled',
          subject: { type: 'enrolment', id },
          changes: audit.changes(presentEnrolment(row), presentEnrolment(cancelled)),
        });
        await deps.waitlist.fillSeats(trx, ctx, session, counts, now);
        return find(id, trx);
      });
      return presentEnrolment(cancelled);
    },

    /**
     * Records the completion of a confirmed enrolment (`academy admin enrolments complete`): its
     * outcome and notes, once. Records `enrollment.completed`.
     */
    async complete(ctx: ServiceContext, id: number, input: EnrolmentCompletion): Promise<Enrolment> {
      requirePermission(ctx, 'enrolments.manage');
      const outcome = input.completion_outcome;
      const notes = input.completion_notes?.trim() ?? null;
      const now = ctx.clock.now().toISOString();
      const completed = await withSession(id, async (trx, row, session) => {
        if (row.status !== 'confirmed') {
          throw new ConflictError('invalid_transition', `Only a confirmed enrolment can be completed; this one is ${row.status}.`);
        }
        if (row.completion_recorded_at !== null) {
          throw new ConflictError('invalid_transition', 'The completion of this enrolment is recorded already.');
        }
        await enrolments.update(trx, id, {
          completion_outcome: outcome,
          completion_notes: notes,
          completion_recorded_at: now,
          updated_at: now,
        });
        await sessions.update(trx, session.id, { completed_count: session.completed_count + 1, updated_at: now });
        await deps.outbox.emit(trx, 'enrollment.completed', enrolmentPayload(row, { completion_outcome: outcome, at: now }));
        const completed = await find(id, trx);
        await audit.record(trx, ctx, {
          action: 'enrolment.completed',
          subject: { type: 'enrolment', id },
          changes: audit.changes(presentEnrolment(row), presentEnrolment(completed)),
        });
        return completed;
      });
      return presentEnrolment(completed);
    },
  };
}

export type EnrolmentService = ReturnType<typeof createEnrolmentService>;
