import { type Static, Type } from 'typebox';
import { ListQuery } from '../../http/list.ts';
import { DateString, Nullable, StringEnum, Timestamp } from '../../http/schemas.ts';
import { Text } from '../../platform/validation.ts';
import { Instant } from '../sessions/schemas.ts';

/** The persisted status, in the spec's spelling. */
export const MEETING_STATUSES = ['Scheduled', 'Cancelled'] as const;
export type MeetingStatus = (typeof MEETING_STATUSES)[number];

export const EFFECTIVE_STATUSES = ['scheduled', 'completed', 'cancelled'] as const;
export type EffectiveStatus = (typeof EFFECTIVE_STATUSES)[number];

export const Meeting = Type.Object(
  {
    id: Type.Integer(),
    session_id: Type.Integer({ description: 'The training session this class day belongs to.' }),
    held_on: DateString('The day of the meeting, in the organization’s time zone.'),
    starts_at: Nullable(Timestamp('When it starts (on `held_on` in the organization’s time zone); null when not set.')),
    ends_at: Nullable(Timestamp('When it ends (after `starts_at`, on `held_on`); null when not set.')),
    location: Nullable(Type.String({ description: 'Where it takes place (a room, an address or a video link).' })),
    status: StringEnum(MEETING_STATUSES, { description: 'The stored status: `Scheduled` or `Cancelled` (by an administrator).' }),
    effective_status: StringEnum(EFFECTIVE_STATUSES, {
      description:
        '`cancelled` when `status` is `Cancelled`; otherwise `completed` once the meeting is over — at `ends_at`, or without one at ' +
        'the end of `held_on` in the organization’s time zone — and `scheduled` before.',
    }),
    cancelled_at: Nullable(Timestamp('When the meeting was cancelled.')),
    created_at: Timestamp('Creation time.'),
    updated_at: Timestamp('Last change.'),
  },
  { $id: 'Meeting' },
);
export type Meeting = Static<typeof Meeting>;

export const MEETING_SORTS = ['id', 'held_on'] as const;
export type MeetingSort = (typeof MEETING_SORTS)[number];

export const MeetingListQuery = ListQuery({ sort: MEETING_SORTS });

/** `academy admin meetings create`: a class day of a training session. */
export const MeetingCreate = Type.Object(
  {
    session_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    held_on: Type.String({ format: 'date' }),
    starts_at: Type.Optional(Nullable(Instant('On `held_on` in the organization’s time zone.'))),
    ends_at: Type.Optional(Nullable(Instant('After `starts_at`, on `held_on` in the organization’s time zone.'))),
    // An address may take several lines.
    location: Type.Optional(Nullable(Text(500))),
  },
  { additionalProperties: false },
);
export type MeetingCreate = Static<typeof MeetingCreate>;
