import { type Static, Type } from 'typebox';
import { ListQuery } from '../../http/list.ts';
import { DateString, Nullable, StringEnum, Timestamp } from '../../http/schemas.ts';
import { Line } from '../../platform/validation.ts';

/** The training-session (intake) workflow's states (see lifecycle.ts). */
export const SESSION_STATES = ['draft', 'scheduled', 'open_for_registration', 'in_progress', 'completed', 'cancelled'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

export const REGISTRATION_STATUSES = ['not_open', 'open', 'closed'] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

export const CAPACITY_STATUSES = ['available', 'full', 'waitlist'] as const;
export type CapacityStatus = (typeof CAPACITY_STATUSES)[number];

export const Session = Type.Object(
  {
    id: Type.Integer(),
    course_id: Type.Integer(),
    course: Type.String({ description: 'The slug of the course this session delivers.' }),
    name: Type.String({ description: 'The intake’s name, e.g. "January 2027 (Berlin)".' }),
    workflow_state: StringEnum(SESSION_STATES, {
      description:
        'draft → scheduled → open_for_registration → in_progress → completed; `cancelled` from any state but those two, only by an ' +
        'administrator. The moves after `scheduled` are also made automatically from the registration opening time and the start ' +
        'and end dates (in the organization’s time zone).',
    }),
    max_participants: Type.Integer({ minimum: 0, description: 'Seats: the most confirmed enrolments the session takes.' }),
    waitlist_enabled: Type.Boolean({ description: 'Whether enrolments beyond the seats join a waitlist (else they are refused).' }),
    registration_opens_at: Nullable(Timestamp('When registration opens; null: as soon as the session is open for registration.')),
    registration_closes_at: Nullable(Timestamp('When registration closes; null: open until the session starts (`in_progress`).')),
    registration_status: StringEnum(REGISTRATION_STATUSES, {
      description:
        '`open` only while `workflow_state` is `open_for_registration` and now is inside the registration window ' +
        '(`registration_opens_at` ≤ now < `registration_closes_at`, an absent bound being no bound); `not_open` before the window, ' +
        'and in `draft` and `scheduled`; `closed` after the window and in `in_progress`, `completed` and `cancelled`.',
    }),
    registration_open: Type.Boolean({ description: 'Whether `registration_status` is `open`.' }),
    starts_on: DateString('First day of the session.'),
    ends_on: DateString('Last day of the session.'),
    instructor_name: Nullable(Type.String({ description: 'Who teaches the session.' })),
    confirmed_count: Type.Integer({ minimum: 0, description: 'Confirmed enrolments.' }),
    waitlisted_count: Type.Integer({ minimum: 0, description: 'Enrolments on the waitlist.' }),
    available_seats: Type.Integer({ minimum: 0, description: '`max_participants` − `confirmed_count`, never below 0.' }),
    capacity_status: StringEnum(CAPACITY_STATUSES, {
      description: '`available` while seats remain; otherwise `waitlist` when the waitlist is enabled, else `full`.',
    }),
    completion_rate: Nullable(
      Type.Number({
        minimum: 0,
        maximum: 100,
        description:
          'Percentage (one decimal) of confirmed enrolments with a recorded completion (any outcome); null while there are no ' +
          'confirmed enrolments.',
      }),
    ),
    created_at: Timestamp('Creation time.'),
    updated_at: Timestamp('Last change, including a change of its enrolment counts.'),
  },
  { $id: 'Session' },
);
export type Session = Static<typeof Session>;

export const SESSION_SORTS = ['id', 'starts_on', 'updated_at'] as const;
export type SessionSort = (typeof SESSION_SORTS)[number];

export const SessionListQuery = ListQuery({ sort: SESSION_SORTS });

/**
 * An instant as input: an RFC 3339 date-time with a time zone, stored in UTC. The pattern keeps to
 * the forms Date reads: the date-time format alone also allows a leap second, a space for the `T`
 * and an offset without its colon, which would fail the service instead of the input.
 */
export function Instant(description?: string) {
  return Type.String({
    format: 'date-time',
    pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-5][0-9](\\.[0-9]{1,9})?([Zz]|[+-][0-9]{2}:[0-9]{2})$',
    'x-message': 'must be an RFC 3339 date-time with a time zone, e.g. 2027-01-11T09:00:00Z',
    ...(description ? { description } : {}),
  });
}

/** The most seats a session may have. */
export const MAX_SEATS = 100_000;

/** The states a session may be created in: before it runs. */
export const INITIAL_STATES = ['draft', 'scheduled', 'open_for_registration'] as const;

/** The fields a session is created with and may change (all but its course). */
const editable = {
  name: Line(200),
  max_participants: Type.Integer({ minimum: 0, maximum: MAX_SEATS }),
  registration_opens_at: Nullable(Instant()),
  registration_closes_at: Nullable(Instant()),
  starts_on: Type.String({ format: 'date' }),
  ends_on: Type.String({ format: 'date' }),
  instructor_name: Nullable(Line(200)),
};

/** `academy admin sessions create`: a session of a course, in `draft` unless `workflow_state` says otherwise. */
export const SessionCreate = Type.Object(
  {
    course: Line(100, { description: 'The slug of the course.' }),
    name: editable.name,
    max_participants: editable.max_participants,
    // Null, like absence, takes the default (a waitlist; `draft`).
    waitlist_enabled: Type.Optional(Nullable(Type.Boolean())),
    registration_opens_at: Type.Optional(editable.registration_opens_at),
    registration_closes_at: Type.Optional(editable.registration_closes_at),
    starts_on: editable.starts_on,
    ends_on: editable.ends_on,
    instructor_name: Type.Optional(editable.instructor_name),
    workflow_state: Type.Optional(Nullable(StringEnum(INITIAL_STATES))),
  },
  { additionalProperties: false },
);
export type SessionCreate = Static<typeof SessionCreate>;

/** `academy admin sessions update`: the fields to change; a `workflow_state` is a workflow move. */
export const SessionUpdate = Type.Object(
  {
    name: Type.Optional(editable.name),
    max_participants: Type.Optional(editable.max_participants),
    waitlist_enabled: Type.Optional(Type.Boolean()),
    registration_opens_at: Type.Optional(editable.registration_opens_at),
    registration_closes_at: Type.Optional(editable.registration_closes_at),
    starts_on: Type.Optional(editable.starts_on),
    ends_on: Type.Optional(editable.ends_on),
    instructor_name: Type.Optional(editable.instructor_name),
    // Cancelling is its own act (CONTRACT: `cancelled` only through the transition), not a field edit.
    workflow_state: Type.Optional(
      Type.Unsafe<Exclude<SessionState, 'cancelled'>>({
        type: 'string',
        enum: [...SESSION_STATES],
        not: { const: 'cancelled' },
        'x-message':
          'must not be cancelled here: a session is cancelled only through its transition (sessions transition ID, to_state "cancelled")',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SessionUpdate = Static<typeof SessionUpdate>;

/** `academy admin sessions transition`: the state to move to. */
export const SessionTransition = Type.Object({ to_state: StringEnum(SESSION_STATES) }, { additionalProperties: false });
export type SessionTransition = Static<typeof SessionTransition>;
