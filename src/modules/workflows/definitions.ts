import type { Permission } from '../../platform/permissions.ts';

/**
 * The workflow definitions. They live in code: each has its states, the moves allowed from each
 * state (empty for a final state), the state a new instance starts in, the kind of subject it
 * approves, and the permission a user needs to move or assign one of its instances.
 */
export interface WorkflowDefinition {
  key: string;
  description: string;
  /** What an instance is about by default, e.g. `course`. */
  subjectType: string;
  initial: string;
  /** Each state with the states reachable from it. */
  moves: Readonly<Record<string, readonly string[]>>;
  /** A permission staff users are granted by the administration (src/platform/permissions.ts). */
  approvalPolicy: { required_permission: Permission };
}

export const WORKFLOWS = {
  course_approval: {
    key: 'course_approval',
    description: 'The review of a course submitted for publication; opened when a course moves to `review`.',
    subjectType: 'course',
    initial: 'pending',
    moves: {
      pending: ['in_review', 'approved', 'rejected'],
      in_review: ['approved', 'rejected', 'changes_requested'],
      changes_requested: ['pending'],
      approved: [],
      rejected: [],
    },
    approvalPolicy: { required_permission: 'courses.approve' },
  },
  document_approval: {
    key: 'document_approval',
    description: 'The review of an uploaded document before it is accepted.',
    subjectType: 'document',
    initial: 'pending',
    moves: {
      pending: ['approved', 'rejected', 'changes_requested'],
      changes_requested: ['pending'],
      approved: [],
      rejected: [],
    },
    approvalPolicy: { required_permission: 'documents.approve' },
  },
} as const satisfies Record<string, WorkflowDefinition>;

export type WorkflowKey = keyof typeof WORKFLOWS;

/** Every definition key, sorted (the `workflow` filter's enum). */
export const WORKFLOW_KEYS = Object.keys(WORKFLOWS).sort() as [WorkflowKey, ...WorkflowKey[]];

/** Every state of every definition, sorted (the `state` filter's enum). */
export const WORKFLOW_STATES = [...new Set(Object.values(WORKFLOWS).flatMap((d) => Object.keys(d.moves)))].sort() as [string, ...string[]];

export function isWorkflowKey(key: string): key is WorkflowKey {
  return Object.hasOwn(WORKFLOWS, key);
}

export function definitionOf(key: string): WorkflowDefinition {
  if (!isWorkflowKey(key)) throw new Error(`Unknown workflow definition ${key}`);
  return WORKFLOWS[key];
}

/** The states of a definition, in its declared order. */
export function statesOf(definition: WorkflowDefinition): string[] {
  return Object.keys(definition.moves);
}

/** The states reachable from `state` (none from a final state or an unknown one). */
export function movesFrom(definition: WorkflowDefinition, state: string): readonly string[] {
  return Object.hasOwn(definition.moves, state) ? (definition.moves[state] ?? []) : [];
}

/** A state from which no move leads anywhere: the instance is finished. */
export function finalStates(definition: WorkflowDefinition): string[] {
  return statesOf(definition).filter((state) => movesFrom(definition, state).length === 0);
}
