import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { EventRepository, EventRow } from './repository.ts';
import { EVENT_VERSION, type EventType } from './types.ts';

/** The webhook envelope: id, type, version, occurred_at, payload (spec §6). */
export interface DomainEvent {
  id: string;
  type: string;
  version: string;
  occurred_at: string;
  payload: Record<string, unknown>;
}

export function toDomainEvent(row: EventRow): DomainEvent {
  return { id: row.id, type: row.type, version: row.version, occurred_at: row.occurred_at, payload: JSON.parse(row.payload) };
}

/** A new event id (`evt_…`), which webhook deliveries send as `webhook-id`. */
export function newEventId(): string {
  return `evt_${randomBytes(12).toString('base64url')}`;
}

/**
 * Attempts of an event's dispatch (its fan-out into deliveries and messages). With the default
 * backoff (doubling from 1 s, at most an hour) they span about 13 hours, where the default ten
 * span under 10 minutes: a dispatch that has run out of attempts is an event no receiver ever gets,
 * so hours of failing writes (a database that comes and goes, lock timeouts) lose none.
 */
export const DISPATCH_MAX_ATTEMPTS = 25;

/**
 * Writes domain events to the outbox inside the caller's transaction and enqueues their dispatch in
 * the same transaction: an event exists exactly when the change it describes was committed.
 */
export function createOutbox(deps: { events: EventRepository; queue: JobQueue; clock: Clock }) {
  return {
    async emit(trx: Kysely<DB>, type: EventType, payload: Record<string, unknown>): Promise<DomainEvent> {
      const event: DomainEvent = { id: newEventId(), type, version: EVENT_VERSION, occurred_at: deps.clock.now().toISOString(), payload };
      await deps.events.insert(trx, { ...event, payload: JSON.stringify(payload) });
      await deps.queue.enqueue(trx, 'events.dispatch', { eventId: event.id }, { maxAttempts: DISPATCH_MAX_ATTEMPTS });
      return event;
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
