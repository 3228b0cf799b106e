import { type Static, Type } from 'typebox';
import { ListQuery } from '../../http/list.ts';
import { Nullable, Ref, StringEnum, Timestamp } from '../../http/schemas.ts';
import { WORKFLOW_KEYS, WORKFLOW_STATES } from './definitions.ts';

/** A user as a workflow shows one: the assignee, or who decided. */
export const WorkflowUser = Type.Object({ id: Type.Integer(), name: Type.String() }, { $id: 'WorkflowUser' });
export type WorkflowUser = Static<typeof WorkflowUser>;

export const WorkflowDecision = Type.Object(
  {
    from_state: Type.String(),
    to_state: Type.String(),
    decided_by: Ref(WorkflowUser),
    comment: Nullable(Type.String()),
    decided_at: Timestamp('When the decision was recorded.'),
  },
  { $id: 'WorkflowDecision' },
);
export type WorkflowDecision = Static<typeof WorkflowDecision>;

export const WorkflowInstance = Type.Object(
  {
    id: Type.Integer(),
    workflow: StringEnum(WORKFLOW_KEYS, { description: 'The key of the workflow definition.' }),
    state: Type.String({ description: 'The current state, one of the definition’s states.' }),
    subject_type: Nullable(Type.String({ description: 'What the instance is about, e.g. `course`.' })),
    subject_id: Nullable(Type.Integer({ description: 'The id of the subject.' })),
    assignee: Type.Union([Ref(WorkflowUser), Type.Null()], { description: 'The staff user assigned to decide, if any.' }),
    approval_policy: Type.Object(
      {
        required_permission: Type.String({
          description: 'The permission the acting user needs to transition or assign an instance of this workflow.',
        }),
      },
      { description: 'Who may decide.' },
    ),
    allowed_transitions: Type.Array(Type.String(), {
      description: 'The states reachable from the current one (empty once the instance is finished).',
    }),
    decisions: Type.Array(Ref(WorkflowDecision), { description: 'Every transition recorded, oldest first.' }),
    created_at: Timestamp('When the instance was opened.'),
    updated_at: Timestamp('Last change: a transition or an assignment.'),
  },
  { $id: 'WorkflowInstance' },
);
export type WorkflowInstance = Static<typeof WorkflowInstance>;

export const WORKFLOW_SORTS = ['id', 'workflow', 'state', 'created_at', 'updated_at'] as const;
export type WorkflowSort = (typeof WORKFLOW_SORTS)[number];

export const WorkflowListQuery = ListQuery({
  sort: WORKFLOW_SORTS,
  filters: {
    workflow: Type.Optional(StringEnum(WORKFLOW_KEYS, { description: 'Only instances of this workflow definition.' })),
    state: Type.Optional(StringEnum(WORKFLOW_STATES, { description: 'Only instances in this state.' })),
    subject_type: Type.Optional(Type.String({ maxLength: 50, description: 'Only instances about this kind of subject, e.g. `course`.' })),
    subject_id: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Only instances about the subject with this id.' }),
    ),
  },
});

export const TransitionBody = Type.Object(
  {
    to_state: Type.String({
      minLength: 1,
      maxLength: 50,
      description: 'The state to move to; one of `allowed_transitions`.',
      examples: ['approved'],
    }),
    comment: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 2000,
          description: 'The reason for the decision, kept with it.',
          examples: ['Content and pricing approved for the spring catalogue.'],
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

export const AssignBody = Type.Object(
  { user_id: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'An active staff user.' }) },
  { additionalProperties: false },
);

const Id = (description: string) => Type.Integer({ minimum: 1, maximum: 2147483647, description });

/** `academy admin workflows create`: opens an instance. Not part of the API. */
export const WorkflowCreate = Type.Object(
  {
    workflow: StringEnum(WORKFLOW_KEYS, { description: 'The definition.' }),
    subject_type: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 50,
          pattern: '^[a-z][a-z0-9_]*$',
          'x-message': 'must be a lowercase word such as "course" (letters, digits and underscores)',
          description: "What the instance is about; the definition's own type when omitted. Needs a subject_id.",
        }),
      ),
    ),
    subject_id: Type.Optional(Nullable(Id('The id of the subject.'))),
    assignee_id: Type.Optional(Nullable(Id('An active staff user who is to decide.'))),
  },
  { additionalProperties: false },
);
export type WorkflowCreate = Static<typeof WorkflowCreate>;
