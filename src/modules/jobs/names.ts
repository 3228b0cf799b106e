/**
 * Every job the platform runs, with the payload it carries. A worker refuses to start unless each
 * name here has exactly one registered handler.
 */
export interface JobPayloads {
  /** Fan an outbox event out to webhook endpoints and integrations. */
  'events.dispatch': { eventId: string };
  /** One attempt to deliver an event to one webhook endpoint. */
  'webhooks.deliver': { deliveryId: number };
  /** One attempt to deliver an integration message. */
  'integrations.deliver': { messageId: number };
  /** One run of a scheduled task. */
  'tasks.run': { runId: number };
  /** Exercises the queue itself (tests, benchmarks, operators checking a deployment). */
  'system.noop': { sleepMs?: number; marker?: string };
}

export type JobName = keyof JobPayloads;

export const JOB_NAMES = [
  'events.dispatch',
  'webhooks.deliver',
  'integrations.deliver',
  'tasks.run',
  'system.noop',
] as const satisfies readonly JobName[];
