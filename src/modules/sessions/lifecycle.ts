import type { WebhookEventType } from '../../platform/events/types.ts';
import { defineLifecycle } from '../../platform/lifecycle.ts';
import type { SessionState } from './schemas.ts';

export type SessionMove = 'schedule' | 'open_registration' | 'start' | 'complete' | 'cancel';

/**
 * The training-session (intake) workflow: draft → scheduled → open_for_registration → in_progress →
 * completed, and `cancelled` from every state but the two final ones. Cancelling is only ever done by
 * an administrator; the `sessions.advance` task makes the moves after `scheduled` from the dates.
 */
export const sessionLifecycle = defineLifecycle<SessionState, SessionMove>({
  table: 'training_sessions',
  column: 'workflow_state',
  moves: {
    schedule: { from: ['draft'], to: 'scheduled' },
    open_registration: { from: ['scheduled'], to: 'open_for_registration' },
    start: { from: ['open_for_registration'], to: 'in_progress' },
    complete: { from: ['in_progress'], to: 'completed' },
    cancel: { from: ['draft', 'scheduled', 'open_for_registration', 'in_progress'], to: 'cancelled' },
  },
});

/** The event each move writes, where it writes one (spec §6: course_intake.*). */
export const SESSION_EVENTS: Partial<Record<SessionMove, WebhookEventType>> = {
  open_registration: 'course_intake.registration_opened',
  complete: 'course_intake.completed',
  cancel: 'course_intake.cancelled',
};
