import { type Static, Type } from 'typebox';
import { ListQuery } from '../../http/list.ts';
import { Nullable, StringEnum, Timestamp } from '../../http/schemas.ts';
import { Line } from '../../platform/validation.ts';
import { Instant } from '../sessions/schemas.ts';

export const ASSESSMENT_KINDS = ['assignment', 'exam', 'quiz', 'project', 'practical'] as const;
export type AssessmentKind = (typeof ASSESSMENT_KINDS)[number];

export const Assessment = Type.Object(
  {
    id: Type.Integer(),
    session_id: Type.Integer({ description: 'The training session the assessment belongs to.' }),
    title: Type.String(),
    kind: StringEnum(ASSESSMENT_KINDS, { description: 'What sort of assessment it is.' }),
    due_at: Nullable(Timestamp('When it is due; null when it has no deadline.')),
    max_score: Nullable(Type.Integer({ minimum: 1, description: 'The highest score; null when it is not scored.' })),
    created_at: Timestamp('Creation time.'),
    updated_at: Timestamp('Last change.'),
  },
  { $id: 'Assessment' },
);
export type Assessment = Static<typeof Assessment>;

export const ASSESSMENT_SORTS = ['id', 'due_at', 'title'] as const;
export type AssessmentSort = (typeof ASSESSMENT_SORTS)[number];

export const AssessmentListQuery = ListQuery({ sort: ASSESSMENT_SORTS });

/** `academy admin assessments create`: an assessment of a training session. */
export const AssessmentCreate = Type.Object(
  {
    session_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    title: Line(200),
    // Null, like absence: an `assignment`, with no deadline and no score.
    kind: Type.Optional(Nullable(StringEnum(ASSESSMENT_KINDS))),
    due_at: Type.Optional(Nullable(Instant())),
    max_score: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 100_000 }))),
  },
  { additionalProperties: false },
);
export type AssessmentCreate = Static<typeof AssessmentCreate>;
