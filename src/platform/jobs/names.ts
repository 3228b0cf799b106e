/**
 * Every job the platform runs, with the payload it carries. The platform declares its own here; a
 * module declares its jobs beside their handlers by augmenting this interface:
 *
 *   declare module '../../platform/jobs/names.ts' {
 *     interface JobPayloads { 'webhooks.deliver': { deliveryId: number } }
 *   }
 *
 * and `src/assembly/modules.ts` fails the typecheck while a declared job has no handler in any module.
 */
export interface JobPayloads {
  /** Fan an outbox event out to its subscribers (handled by the events module). */
  'events.dispatch': { eventId: string };
  /** Exercises the queue itself (tests, benchmarks, operators checking a deployment). */
  'system.noop': { sleepMs?: number; marker?: string };
}

export type JobName = keyof JobPayloads;
