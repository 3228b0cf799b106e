import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Permission } from '../../platform/permissions.ts';
import { finalStates, statesOf, WORKFLOWS } from '../workflows/definitions.ts';

/** How many sessions each of the home page's lists shows at most. */
export const HOME_LIST = 20;

/** A session as the home page lists it: its course, dates, fill and waitlist. */
export interface HomeSession {
  id: number;
  name: string;
  starts_on: string;
  ends_on: string;
  workflow_state: string;
  max_participants: number;
  confirmed_count: number;
  waitlisted_count: number;
  course_slug: string;
  course_title: string;
}

export interface HomeCheck {
  name: string;
  last_status: string | null;
  last_checked_at: string | null;
}

/** What needs attention today (the console's home), read in a fixed number of statements. */
export interface HomeFacts {
  /** Instances waiting for a decision, by workflow, among those the viewer may decide; null when they decide none. */
  approvals: Record<string, number> | null;
  /** Sessions starting from `today` for a week, first `HOME_LIST`; `startingTotal` counts them all. */
  starting: HomeSession[];
  startingTotal: number;
  /** Sessions still to run or running with a waitlist, first `HOME_LIST`, and the totals. */
  waitlisted: HomeSession[];
  waitlists: { sessions: number; students: number };
  /** Webhook deliveries that failed for good since `since`, and integration messages failed now. */
  failedDeliveries: number;
  failedMessages: number;
  /** Reports ready to download. */
  reportsReady: number;
  /** The enabled health checks' last results (the periodic run records them). */
  health: HomeCheck[];
}

/** The states of a workflow in which it waits for an approver (not final, not sent back to its author). */
const WAITING = Object.fromEntries(
  Object.values(WORKFLOWS).map((definition) => [
    definition.key,
    statesOf(definition).filter((state) => !finalStates(definition).includes(state) && state !== 'changes_requested'),
  ]),
);

/** Sessions that have not ended or been called off. */
const LIVE_SESSION_STATES = ['scheduled', 'open_for_registration', 'in_progress'];

const count = (value: number | string | bigint | null | undefined) => Number(value ?? 0);

/**
 * The home page's reads: each a single statement, whatever the data (no statement per row), run
 * together. Counts and short lists only; the pages they link to have the rest.
 */
export function createHomeReads(db: Kysely<DB>) {
  const sessions = () =>
    db
      .selectFrom('training_sessions as s')
      .innerJoin('courses as c', 'c.id', 's.course_id')
      .select([
        's.id',
        's.name',
        's.starts_on',
        's.ends_on',
        's.workflow_state',
        's.max_participants',
        's.confirmed_count',
        's.waitlisted_count',
        'c.slug as course_slug',
        'c.title as course_title',
      ]);

  return {
    async facts(input: { permissions: readonly Permission[]; today: string; weekEnd: string; since: string }): Promise<HomeFacts> {
      const decided = Object.values(WORKFLOWS).filter((definition) =>
        input.permissions.includes(definition.approvalPolicy.required_permission),
      );
      const [approvals, starting, startingTotal, waitlisted, waitlists, deliveries, messages, reports, health] = await Promise.all([
        decided.length === 0
          ? Promise.resolve(null)
          : db
              .selectFrom('workflow_instances')
              .select(['workflow', sql<number | string>`count(*)`.as('n')])
              .where((eb) => eb.or(decided.map((d) => eb.and([eb('workflow', '=', d.key), eb('state', 'in', WAITING[d.key] ?? [])]))))
              .groupBy('workflow')
              .execute(),
        sessions()
          .where('s.starts_on', '>=', input.today)
          .where('s.starts_on', '<=', input.weekEnd)
          .where('s.workflow_state', '!=', 'cancelled')
          .orderBy('s.starts_on')
          .orderBy('s.id')
          .limit(HOME_LIST)
          .execute(),
        db
          .selectFrom('training_sessions')
          .select(sql<number | string>`count(*)`.as('n'))
          .where('starts_on', '>=', input.today)
          .where('starts_on', '<=', input.weekEnd)
          .where('workflow_state', '!=', 'cancelled')
          .executeTakeFirst(),
        sessions()
          .where('s.waitlisted_count', '>', 0)
          .where('s.workflow_state', 'in', LIVE_SESSION_STATES)
          .orderBy('s.starts_on')
          .orderBy('s.id')
          .limit(HOME_LIST)
          .execute(),
        db
          .selectFrom('training_sessions')
          .select([sql<number | string>`count(*)`.as('sessions'), sql<number | string | null>`sum(waitlisted_count)`.as('students')])
          .where('waitlisted_count', '>', 0)
          .where('workflow_state', 'in', LIVE_SESSION_STATES)
          .executeTakeFirst(),
        db
          .selectFrom('webhook_deliveries')
          .select(sql<number | string>`count(*)`.as('n'))
          .where('status', '=', 'failed')
          .where('completed_at', '>=', input.since)
          .executeTakeFirst(),
        db
          .selectFrom('integration_messages')
          .select(sql<number | string>`count(*)`.as('n'))
          .where('status', '=', 'failed')
          .executeTakeFirst(),
        db.selectFrom('reports').select(sql<number | string>`count(*)`.as('n')).where('status', '=', 'available').executeTakeFirst(),
        db
          .selectFrom('health_checks')
          .select(['name', 'last_status', 'last_checked_at'])
          .where('enabled', '=', true)
          .orderBy('id')
          .execute(),
      ]);
      const asSession = (row: HomeSession): HomeSession => ({
        ...row,
        max_participants: count(row.max_participants),
        confirmed_count: count(row.confirmed_count),
        waitlisted_count: count(row.waitlisted_count),
      });
      return {
        approvals:
          approvals === null
            ? null
            : Object.fromEntries(decided.map((d) => [d.key, count(approvals.find((row) => row.workflow === d.key)?.n)])),
        starting: starting.map(asSession),
        startingTotal: count(startingTotal?.n),
        waitlisted: waitlisted.map(asSession),
        waitlists: { sessions: count(waitlists?.sessions), students: count(waitlists?.students) },
        failedDeliveries: count(deliveries?.n),
        failedMessages: count(messages?.n),
        reportsReady: count(reports?.n),
        health,
      };
    },
  };
}

export type HomeReads = ReturnType<typeof createHomeReads>;
