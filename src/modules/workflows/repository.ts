import type { Insertable, Kysely, Selectable } from 'kysely';
import { bool, json } from '../../db/codec.ts';
import type { Dialect } from '../../db/database.ts';
import { type ListRequest, listPage, type Page } from '../../db/list.ts';
import { forUpdate } from '../../db/locks.ts';
import type { DB, WorkflowInstanceTable } from '../../db/schema.ts';
import { effectivePermissions } from '../../platform/permissions.ts';
import type { WorkflowSort } from './schemas.ts';

export type InstanceRow = Selectable<WorkflowInstanceTable> & { assignee_name: string | null };

export interface DecisionRow {
  instance_id: number;
  from_state: string;
  to_state: string;
  decided_by: number;
  decided_by_name: string;
  comment: string | null;
  decided_at: string;
}

/** A user as workflows need one: to check a permission, or to assign. */
export interface PersonRow {
  id: number;
  name: string;
  status: string;
  is_admin: boolean;
  permissions: string[];
}

export interface InstanceFilter {
  workflow?: string | undefined;
  state?: string | undefined;
  subjectType?: string | undefined;
  subjectId?: number | undefined;
}

const INSTANCE_COLUMNS = [
  'workflow_instances.id',
  'workflow_instances.workflow',
  'workflow_instances.state',
  'workflow_instances.subject_type',
  'workflow_instances.subject_id',
  'workflow_instances.assignee_id',
  'workflow_instances.created_at',
  'workflow_instances.updated_at',
  'assignee.name as assignee_name',
] as const;

function namesOf(value: string): string[] {
  const parsed = json<unknown>(value);
  return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : [];
}

export function createWorkflowRepository(db: Kysely<DB>) {
  const withAssignee = (executor: Kysely<DB>) =>
    executor
      .selectFrom('workflow_instances')
      .leftJoin('users as assignee', 'assignee.id', 'workflow_instances.assignee_id')
      .select(INSTANCE_COLUMNS);

  return {
    list: async (filter: InstanceFilter, list: ListRequest<WorkflowSort>, executor: Kysely<DB> = db): Promise<Page<InstanceRow>> => {
      let query = withAssignee(executor);
      if (filter.workflow !== undefined) query = query.where('workflow_instances.workflow', '=', filter.workflow);
      if (filter.state !== undefined) query = query.where('workflow_instances.state', '=', filter.state);
      if (filter.subjectType !== undefined) query = query.where('workflow_instances.subject_type', '=', filter.subjectType);
      if (filter.subjectId !== undefined) query = query.where('workflow_instances.subject_id', '=', filter.subjectId);
      return listPage(executor, query, list, {
        sort: {
          id: 'workflow_instances.id',
          workflow: 'workflow_instances.workflow',
          state: 'workflow_instances.state',
          created_at: 'workflow_instances.created_at',
          updated_at: 'workflow_instances.updated_at',
        },
        id: 'workflow_instances.id',
        updatedAt: 'workflow_instances.updated_at',
      });
    },

    find: async (id: number, executor: Kysely<DB> = db): Promise<InstanceRow | undefined> =>
      withAssignee(executor).where('workflow_instances.id', '=', id).executeTakeFirst(),

    /** Locks an instance for the rest of `trx` (a row lock on PostgreSQL; SQLite's writers run one at a time). */
    lock: async (trx: Kysely<DB>, dialect: Dialect, id: number): Promise<void> => {
      await forUpdate(trx.selectFrom('workflow_instances').select('id').where('id', '=', id), dialect).executeTakeFirst();
    },

    /** The unfinished instance of a workflow about a subject, if there is one. */
    findOpen: async (
      executor: Kysely<DB>,
      subject: { workflow: string; subjectType: string; subjectId: number; finalStates: readonly string[] },
    ): Promise<{ id: number } | undefined> => {
      let query = executor
        .selectFrom('workflow_instances')
        .select('id')
        .where('subject_type', '=', subject.subjectType)
        .where('subject_id', '=', subject.subjectId)
        .where('workflow', '=', subject.workflow);
      if (subject.finalStates.length > 0) query = query.where('state', 'not in', [...subject.finalStates]);
      return query.orderBy('id').executeTakeFirst();
    },

    /** The decisions of each instance, oldest first. */
    decisionsOf: async (instanceIds: readonly number[], executor: Kysely<DB> = db): Promise<Map<number, DecisionRow[]>> => {
      const decisions = new Map<number, DecisionRow[]>(instanceIds.map((id) => [id, []]));
      if (instanceIds.length === 0) return decisions;
      const rows = await executor
        .selectFrom('workflow_decisions')
        .innerJoin('users', 'users.id', 'workflow_decisions.decided_by')
        .select([
          'workflow_decisions.instance_id',
          'workflow_decisions.from_state',
          'workflow_decisions.to_state',
          'workflow_decisions.decided_by',
          'users.name as decided_by_name',
          'workflow_decisions.comment',
          'workflow_decisions.decided_at',
        ])
        .where('workflow_decisions.instance_id', 'in', [...instanceIds])
        .orderBy('workflow_decisions.instance_id')
        .orderBy('workflow_decisions.id')
        .execute();
      for (const row of rows) decisions.get(row.instance_id)?.push(row);
      return decisions;
    },

    findPerson: async (executor: Kysely<DB>, id: number): Promise<PersonRow | undefined> => {
      const row = await executor
        .selectFrom('users')
        .select(['id', 'name', 'status', 'is_admin', 'roles', 'permissions'])
        .where('id', '=', id)
        .executeTakeFirst();
      // What the user may decide: their roles' permissions and those granted directly.
      return (
        row && {
          id: row.id,
          name: row.name,
          status: row.status,
          is_admin: bool(row.is_admin),
          permissions: effectivePermissions(namesOf(row.roles), namesOf(row.permissions)),
        }
      );
    },

    insert: async (executor: Kysely<DB>, values: Insertable<WorkflowInstanceTable>): Promise<number> =>
      (await executor.insertInto('workflow_instances').values(values).returning('id').executeTakeFirstOrThrow()).id,

    /**
     * Moves the `updated_at` of every instance that shows a person's name (as its assignee or as the
     * maker of one of its decisions): their representations change with the name, and a client that
     * syncs with `updated_since` must see them again.
     */
    touchForPerson: async (executor: Kysely<DB>, userId: number, now: string): Promise<void> => {
      await executor
        .updateTable('workflow_instances')
        .set({ updated_at: now })
        .where((eb) =>
          eb.or([
            eb('assignee_id', '=', userId),
            eb('id', 'in', eb.selectFrom('workflow_decisions').select('instance_id').where('decided_by', '=', userId)),
          ]),
        )
        .execute();
    },

    assign: async (executor: Kysely<DB>, id: number, assigneeId: number, now: string): Promise<void> => {
      await executor.updateTable('workflow_instances').set({ assignee_id: assigneeId, updated_at: now }).where('id', '=', id).execute();
    },

    insertDecision: async (
      executor: Kysely<DB>,
      decision: {
        instance_id: number;
        from_state: string;
        to_state: string;
        decided_by: number;
        comment: string | null;
        decided_at: string;
      },
    ): Promise<void> => {
      await executor.insertInto('workflow_decisions').values(decision).execute();
    },
  };
}

export type WorkflowRepository = ReturnType<typeof createWorkflowRepository>;
