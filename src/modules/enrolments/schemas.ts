import { type Static, Type } from 'typebox';
import { ListQuery } from '../../http/list.ts';
import { Nullable, StringEnum, Timestamp } from '../../http/schemas.ts';
import { Text } from '../../platform/validation.ts';

export const ENROLMENT_STATUSES = ['confirmed', 'waitlisted', 'cancelled'] as const;
export type EnrolmentStatus = (typeof ENROLMENT_STATUSES)[number];

export const COMPLETION_OUTCOMES = ['passed', 'failed', 'withdrawn'] as const;
export type CompletionOutcome = (typeof COMPLETION_OUTCOMES)[number];

export const Enrolment = Type.Object(
  {
    id: Type.Integer(),
    student_id: Type.Integer({ description: 'The enrolled student (a user, see `/students/{student}`).' }),
    session_id: Type.Integer({ description: 'The training session (intake) enrolled in.' }),
    course_id: Type.Integer({ description: 'The course of that session.' }),
    status: StringEnum(ENROLMENT_STATUSES, {
      description:
        '`confirmed` holds a seat; `waitlisted` waits for one (enrolling into a session without free seats whose waitlist is ' +
        'enabled); `cancelled` is final and frees the seat, which goes to the oldest waitlisted enrolment.',
    }),
    waitlist_position: Nullable(
      Type.Integer({
        minimum: 1,
        description: '1-based place on the session’s waitlist (positions stay contiguous); null unless waitlisted.',
      }),
    ),
    confirmed_at: Nullable(Timestamp('When the enrolment got its seat (at creation, or when promoted from the waitlist).')),
    cancelled_at: Nullable(Timestamp('When the enrolment was cancelled.')),
    cancellation_reason: Nullable(Type.String()),
    completion_outcome: Nullable(StringEnum(COMPLETION_OUTCOMES, { description: 'Recorded at the end of a confirmed enrolment.' })),
    completion_notes: Nullable(Type.String()),
    completion_recorded_at: Nullable(Timestamp('When the completion was recorded.')),
    created_at: Timestamp('Creation time.'),
    updated_at: Timestamp('Last change (a waitlist position moving up counts).'),
  },
  { $id: 'Enrolment' },
);
export type Enrolment = Static<typeof Enrolment>;

const Id = (description: string) => Type.Integer({ minimum: 1, maximum: 2147483647, description });

/** `academy admin enrolments create`. Not part of the API (enrolments are made in the administration). */
export const EnrolmentCreate = Type.Object(
  {
    student_id: Id('A student: a user with a course application who is not staff.'),
    session_id: Id('The training session to enrol in.'),
  },
  { additionalProperties: false },
);
export type EnrolmentCreate = Static<typeof EnrolmentCreate>;

/** `academy admin enrolments cancel ID`: why, if the operator says. */
export const EnrolmentCancel = Type.Object(
  { reason: Type.Optional(Nullable(Text(2000, { description: 'Why the enrolment is cancelled (trimmed).' }))) },
  { additionalProperties: false },
);
export type EnrolmentCancel = Static<typeof EnrolmentCancel>;

/** `academy admin enrolments complete ID`: the outcome of a confirmed enrolment, once. */
export const EnrolmentCompletion = Type.Object(
  {
    completion_outcome: StringEnum(COMPLETION_OUTCOMES),
    completion_notes: Type.Optional(Nullable(Text(10_000, { description: 'Trimmed.' }))),
  },
  { additionalProperties: false },
);
export type EnrolmentCompletion = Static<typeof EnrolmentCompletion>;

export const ENROLMENT_SORTS = ['id', 'created_at', 'updated_at'] as const;
export type EnrolmentSort = (typeof ENROLMENT_SORTS)[number];

export const EnrolmentListQuery = ListQuery({
  sort: ENROLMENT_SORTS,
  filters: {
    student_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Only the enrolments of this student.' })),
    course_id: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Only enrolments in the sessions of this course.' }),
    ),
    status: Type.Optional(StringEnum(ENROLMENT_STATUSES, { description: 'Only enrolments in this status.' })),
  },
});
