import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { definitionOf, finalStates, type WorkflowKey } from './definitions.ts';
import { createWorkflowRepository } from './repository.ts';

export interface OpenWorkflow {
  workflow: WorkflowKey;
  subjectType: string;
  subjectId: number;
  /** When, by the caller's clock. */
  now: string;
}

/**
 * Opens an instance of a workflow about a subject in the caller's transaction, unless one is still
 * unfinished (a course sent back to draft and submitted again keeps its open approval). Returns the
 * instance's id. Other modules call this where their domain starts an approval (a course moved to
 * `review`); this module imports none of them.
 */
export async function openWorkflow(trx: Kysely<DB>, open: OpenWorkflow): Promise<number> {
  const definition = definitionOf(open.workflow);
  const repository = createWorkflowRepository(trx);
  const existing = await repository.findOpen(trx, {
    workflow: open.workflow,
    subjectType: open.subjectType,
    subjectId: open.subjectId,
    finalStates: finalStates(definition),
  });
  if (existing) return existing.id;
  return repository.insert(trx, {
    workflow: open.workflow,
    state: definition.initial,
    subject_type: open.subjectType,
    subject_id: open.subjectId,
    assignee_id: null,
    created_at: open.now,
    updated_at: open.now,
  });
}
