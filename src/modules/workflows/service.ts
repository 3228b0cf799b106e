import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { ListRequest, Page } from '../../db/list.ts';
import type { DB } from '../../db/schema.ts';
import { readSnapshot } from '../../db/snapshot.ts';
import { audit } from '../../platform/audit.ts';
import type { ServiceContext } from '../../platform/context.ts';
import { ConflictError, NotFoundError, PermissionDeniedError, ValidationError } from '../../platform/errors.ts';
import { defineLifecycle, type Lifecycle, type Move } from '../../platform/lifecycle.ts';
import { definitionOf, movesFrom, statesOf, WORKFLOWS, type WorkflowDefinition, type WorkflowKey } from './definitions.ts';
import type { DecisionRow, InstanceFilter, InstanceRow, PersonRow, WorkflowRepository } from './repository.ts';
import type { WorkflowCreate, WorkflowInstance, WorkflowSort } from './schemas.ts';

/**
 * Each definition as a lifecycle whose moves are named by their target state, so that a transition is
 * one conditional update: two concurrent decisions on one instance cannot both win.
 */
function lifecycleOf(definition: WorkflowDefinition): Lifecycle<string, string> {
  const moves: Record<string, Move<string>> = {};
  for (const to of statesOf(definition)) {
    const from = statesOf(definition).filter((state) => movesFrom(definition, state).includes(to));
    if (from.length > 0) moves[to] = { from, to };
  }
  return defineLifecycle<string, string>({
    table: 'workflow_instances',
    column: 'state',
    moves,
    refuse: (to, current) => new ConflictError('invalid_transition', `A ${definition.key} instance cannot move from ${current} to ${to}.`),
  });
}

const LIFECYCLES = new Map<string, Lifecycle<string, string>>(
  Object.values(WORKFLOWS).map((definition) => [definition.key, lifecycleOf(definition)]),
);

export function presentInstance(row: InstanceRow, decisions: readonly DecisionRow[]): WorkflowInstance {
  const definition = definitionOf(row.workflow);
  return {
    id: row.id,
    workflow: row.workflow as WorkflowKey,
    state: row.state,
    subject_type: row.subject_type,
    subject_id: row.subject_id,
    assignee: row.assignee_id !== null && row.assignee_name !== null ? { id: row.assignee_id, name: row.assignee_name } : null,
    approval_policy: { required_permission: definition.approvalPolicy.required_permission },
    allowed_transitions: [...movesFrom(definition, row.state)],
    decisions: decisions.map((decision) => ({
      from_state: decision.from_state,
      to_state: decision.to_state,
      decided_by: { id: decision.decided_by, name: decision.decided_by_name },
      comment: decision.comment,
      decided_at: decision.decided_at,
    })),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Why a user cannot be assigned, or null when it can: only active staff users decide. */
function unassignable(person: PersonRow | undefined): string | null {
  if (!person) return 'No user has this id.';
  if (!person.is_admin) return 'Only staff users can be assigned to a workflow.';
  if (person.status !== 'active') return `The user is ${person.status}; only an active user can be assigned.`;
  return null;
}

export function createWorkflowService(deps: { db: Kysely<DB>; dialect: Dialect; workflows: WorkflowRepository }) {
  const { db, dialect, workflows } = deps;

  async function present(rows: InstanceRow[], executor: Kysely<DB> = db): Promise<WorkflowInstance[]> {
    const decisions = await workflows.decisionsOf(
      rows.map((row) => row.id),
      executor,
    );
    return rows.map((row) => presentInstance(row, decisions.get(row.id) ?? []));
  }

  async function presentOne(id: number, executor: Kysely<DB>): Promise<WorkflowInstance> {
    const row = await workflows.find(id, executor);
    if (!row) throw new NotFoundError();
    const [instance] = await present([row], executor);
    return instance as WorkflowInstance;
  }

  /**
   * The acting user, if it may decide on instances of `definition`: a token acting for an active user
   * who holds the definition's required permission. Anything else is a 403 `permission_denied`.
   */
  async function decider(trx: Kysely<DB>, ctx: ServiceContext, definition: WorkflowDefinition): Promise<PersonRow> {
    const permission = definition.approvalPolicy.required_permission;
    const userId = ctx.actor.userId;
    if (userId === null) {
      throw new PermissionDeniedError(
        `Deciding on a ${definition.key} workflow needs a token that acts for a user holding the ${permission} permission.`,
      );
    }
    const user = await workflows.findPerson(trx, userId);
    if (user?.status !== 'active' || !user.permissions.includes(permission)) {
      throw new PermissionDeniedError(
        `Deciding on a ${definition.key} workflow needs an active user holding the ${permission} permission.`,
      );
    }
    return user;
  }

  async function findRow(trx: Kysely<DB>, id: number): Promise<InstanceRow> {
    const row = await workflows.find(id, trx);
    if (!row) throw new NotFoundError();
    return row;
  }

  /**
   * Reads an instance at the start of a transaction that decides on it, holding it until the
   * transaction ends (a row lock on PostgreSQL; SQLite's writers run one at a time): two decisions
   * sent at once are taken one after the other, the second from the state the first left. Without
   * it, a move allowed from several states (approved, from pending or in_review) was checked against
   * the state read before the first decision committed, and recorded from it.
   */
  async function lockRow(trx: Kysely<DB>, id: number): Promise<InstanceRow> {
    await workflows.lock(trx, dialect, id);
    return findRow(trx, id);
  }

  return {
    // An instance's state and its decisions are committed together (a transition): read in one
    // snapshot, an answer never shows a decision beside the state before it.
    async list(_ctx: ServiceContext, filter: InstanceFilter, list: ListRequest<WorkflowSort>): Promise<Page<WorkflowInstance>> {
      return readSnapshot(db, dialect, async (executor) => {
        const page = await workflows.list(filter, list, executor);
        return { items: await present(page.items, executor), total: page.total };
      });
    },

    async get(_ctx: ServiceContext, id: number): Promise<WorkflowInstance> {
      return readSnapshot(db, dialect, (executor) => presentOne(id, executor));
    },

    /**
     * Opens an instance in its definition's initial state (`academy admin workflows create`). A
     * subject is a type and an id (the type defaults to the definition's); an assignee must be an
     * active staff user.
     */
    async create(ctx: ServiceContext, input: WorkflowCreate): Promise<WorkflowInstance> {
      const { subject_type: subjectType, subject_id: subjectId, assignee_id: assigneeId } = input;
      const errors: Record<string, string[]> = {};
      if (subjectType && typeof subjectId !== 'number') errors.subject_id = ['The subject_id field is required with a subject_type.'];
      if (typeof assigneeId === 'number') {
        const problem = unassignable(await workflows.findPerson(db, assigneeId));
        if (problem) errors.assignee_id = [problem];
      }
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);

      const definition = definitionOf(input.workflow);
      const now = ctx.clock.now().toISOString();
      return db.transaction().execute(async (trx) => {
        const id = await workflows.insert(trx, {
          workflow: definition.key,
          state: definition.initial,
          subject_type: typeof subjectId === 'number' ? (subjectType ?? definition.subjectType) : null,
          subject_id: typeof subjectId === 'number' ? subjectId : null,
          assignee_id: typeof assigneeId === 'number' ? assigneeId : null,
          created_at: now,
          updated_at: now,
        });
        const created = await presentOne(id, trx);
        await audit.record(trx, ctx, {
          action: 'workflow.created',
          subject: { type: 'workflow', id },
          changes: audit.changes(null, {
            workflow: created.workflow,
            state: created.state,
            subject_type: created.subject_type,
            subject_id: created.subject_id,
            assignee_id: created.assignee?.id ?? null,
          }),
        });
        return created;
      });
    },

    /**
     * Records a decision and moves the instance to `to_state`. The acting user must hold the
     * definition's required permission (403 otherwise, and nothing changes); a state the definition
     * does not know is a 422, one it does not allow from the current state a 409 `invalid_transition`.
     */
    async transition(ctx: ServiceContext, id: number, body: { to_state: string; comment?: string | null }): Promise<WorkflowInstance> {
      return db.transaction().execute(async (trx) => {
        const row = await lockRow(trx, id);
        const definition = definitionOf(row.workflow);
        const user = await decider(trx, ctx, definition);
        const to = body.to_state;
        if (!statesOf(definition).includes(to)) {
          throw ValidationError.field('to_state', `The to_state must be a state of ${definition.key}: ${statesOf(definition).join(', ')}.`);
        }
        const now = ctx.clock.now().toISOString();
        const comment = body.comment?.trim() || null;
        const lifecycle = LIFECYCLES.get(definition.key) as Lifecycle<string, string>;
        if (!lifecycle.moves[to]) {
          throw new ConflictError('invalid_transition', `A ${definition.key} instance cannot move from ${row.state} to ${to}.`);
        }
        await lifecycle.apply(trx, id, to, {
          set: { updated_at: now },
          effects: (t) =>
            workflows.insertDecision(t, {
              instance_id: id,
              from_state: row.state,
              to_state: to,
              decided_by: user.id,
              comment,
              decided_at: now,
            }),
        });
        await audit.record(trx, ctx, {
          action: 'workflow.transitioned',
          subject: { type: 'workflow', id },
          changes: { state: [row.state, to], ...(comment === null ? {} : { comment: [null, comment] }) },
        });
        return presentOne(id, trx);
      });
    },

    /** Assigns an active staff user to decide; the acting user needs the same permission as for a transition. */
    async assign(ctx: ServiceContext, id: number, body: { user_id: number }): Promise<WorkflowInstance> {
      return db.transaction().execute(async (trx) => {
        const row = await lockRow(trx, id);
        await decider(trx, ctx, definitionOf(row.workflow));
        const problem = unassignable(await workflows.findPerson(trx, body.user_id));
        if (problem) throw ValidationError.field('user_id', problem);
        await workflows.assign(trx, id, body.user_id, ctx.clock.now().toISOString());
        await audit.record(trx, ctx, {
          action: 'workflow.assigned',
          subject: { type: 'workflow', id },
          changes: audit.changes({ assignee_id: row.assignee_id }, { assignee_id: body.user_id }),
        });
        return presentOne(id, trx);
      });
    },
  };
}

export type WorkflowService = ReturnType<typeof createWorkflowService>;
