import type { SessionRow } from './repository.ts';
import type { CapacityStatus, RegistrationStatus, Session, SessionState } from './schemas.ts';

/** States before registration can open, and states after it has closed for good. */
const BEFORE: readonly SessionState[] = ['draft', 'scheduled'];

/**
 * `open` only in `open_for_registration` inside the registration window (opening time included,
 * closing time excluded; a missing bound is no bound); `not_open` before the window and in the states
 * before `open_for_registration`; `closed` after the window and in every later state.
 */
export function registrationStatus(
  row: Pick<SessionRow, 'workflow_state' | 'registration_opens_at' | 'registration_closes_at'>,
  now: Date,
): RegistrationStatus {
  const state = row.workflow_state as SessionState;
  if (BEFORE.includes(state)) return 'not_open';
  if (state !== 'open_for_registration') return 'closed';
  const at = now.getTime();
  if (row.registration_opens_at !== null && at < Date.parse(row.registration_opens_at)) return 'not_open';
  if (row.registration_closes_at !== null && at >= Date.parse(row.registration_closes_at)) return 'closed';
  return 'open';
}

export function availableSeats(row: Pick<SessionRow, 'max_participants' | 'confirmed_count'>): number {
  return Math.max(0, row.max_participants - row.confirmed_count);
}

export function capacityStatus(row: Pick<SessionRow, 'max_participants' | 'confirmed_count' | 'waitlist_enabled'>): CapacityStatus {
  if (availableSeats(row) > 0) return 'available';
  return row.waitlist_enabled ? 'waitlist' : 'full';
}

/** Percent of confirmed enrolments with a recorded completion, one decimal; null without confirmed ones. */
export function completionRate(row: Pick<SessionRow, 'confirmed_count' | 'completed_count'>): number | null {
  if (row.confirmed_count <= 0) return null;
  return Math.round((row.completed_count / row.confirmed_count) * 1000) / 10;
}

/** A session as the API shows it, its derived fields read at `now`. */
export function presentSession(row: SessionRow, now: Date): Session {
  const registration = registrationStatus(row, now);
  return {
    id: row.id,
    course_id: row.course_id,
    course: row.course_slug,
    name: row.name,
    workflow_state: row.workflow_state as SessionState,
    max_participants: row.max_participants,
    waitlist_enabled: row.waitlist_enabled,
    registration_opens_at: row.registration_opens_at,
    registration_closes_at: row.registration_closes_at,
    registration_status: registration,
    registration_open: registration === 'open',
    starts_on: row.starts_on,
    ends_on: row.ends_on,
    instructor_name: row.instructor_name,
    confirmed_count: row.confirmed_count,
    waitlisted_count: row.waitlisted_count,
    available_seats: availableSeats(row),
    capacity_status: capacityStatus(row),
    completion_rate: completionRate(row),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
