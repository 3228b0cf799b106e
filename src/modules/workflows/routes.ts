import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listRequest, sendList } from '../../http/list.ts';
import { ListOf } from '../../http/pagination.ts';
import { ErrorBody, IdParam, Ref, Single } from '../../http/schemas.ts';
import { WORKFLOWS } from './definitions.ts';
import { AssignBody, TransitionBody, WorkflowDecision, WorkflowInstance, WorkflowListQuery, WorkflowUser } from './schemas.ts';
import type { WorkflowService } from './service.ts';

/** The definitions, as the API description shows them. */
const DEFINITIONS = Object.values(WORKFLOWS)
  .map((definition) => {
    const moves = Object.entries(definition.moves)
      .map(([from, to]) => (to.length > 0 ? `\`${from}\` → ${to.map((s) => `\`${s}\``).join(', ')}` : `\`${from}\` (final)`))
      .join('; ');
    return `- \`${definition.key}\` (permission \`${definition.approvalPolicy.required_permission}\`, starts in \`${definition.initial}\`): ${moves}. ${definition.description}`;
  })
  .join('\n');

const PERMISSION =
  'The acting user must hold the workflow’s `approval_policy.required_permission` and be active: a token that acts for no ' +
  'user, or a user without the permission, is a 403 `permission_denied`, and nothing changes.';

export const workflowRoutes: FastifyPluginAsyncTypebox<{ workflows: WorkflowService; maxPageSize: number }> = async (
  app,
  { workflows, maxPageSize },
) => {
  app.addSchema(WorkflowUser);
  app.addSchema(WorkflowDecision);
  app.addSchema(WorkflowInstance);
  const error = Ref(ErrorBody);
  const params = Type.Object({ workflow: IdParam });

  app.get('/workflows', {
    config: { access: { scope: 'workflows:read' } },
    schema: {
      operationId: 'listWorkflows',
      tags: ['Workflows'],
      summary: 'List workflow instances',
      description: `Approval workflows and where each instance stands. Ordered by id unless \`sort\` says otherwise. The definitions:\n\n${DEFINITIONS}`,
      querystring: WorkflowListQuery,
      response: { 200: ListOf(Ref(WorkflowInstance)) },
    },
    handler: async (request, reply) => {
      const list = listRequest(request.query, { maxPageSize, defaultSort: 'id' });
      const { workflow, state, subject_type, subject_id } = request.query;
      const filter = { workflow, state, subjectType: subject_type, subjectId: subject_id };
      return sendList(request, reply, list, await workflows.list(request.ctx, filter, list));
    },
  });

  app.get('/workflows/:workflow', {
    config: { access: { scope: 'workflows:read' } },
    schema: {
      operationId: 'getWorkflow',
      tags: ['Workflows'],
      summary: 'Get a workflow instance with its decisions',
      params,
      response: { 200: Single(Ref(WorkflowInstance)), 404: error },
    },
    handler: async (request) => ({ data: await workflows.get(request.ctx, request.params.workflow) }),
  });

  app.post('/workflows/:workflow/transition', {
    config: { access: { scope: 'workflows:write' }, errors: { 403: ['permission_denied'], 409: ['invalid_transition'] } },
    schema: {
      operationId: 'transitionWorkflow',
      tags: ['Workflows'],
      summary: 'Decide: move a workflow instance to another state',
      description:
        `Records the decision (who, from which state to which, the comment, when) and moves the instance to \`to_state\`. ${PERMISSION} ` +
        'A state the workflow does not have is a 422; one that is not in `allowed_transitions` a 409 `invalid_transition`.',
      params,
      body: TransitionBody,
      response: { 200: Single(Ref(WorkflowInstance)), 404: error, 409: error, 422: error },
    },
    handler: async (request) => ({ data: await workflows.transition(request.ctx, request.params.workflow, request.body) }),
  });

  app.post('/workflows/:workflow/assign', {
    config: { access: { scope: 'workflows:write' }, errors: { 403: ['permission_denied'] } },
    schema: {
      operationId: 'assignWorkflow',
      tags: ['Workflows'],
      summary: 'Assign a workflow instance to a staff user',
      description: `Sets the \`assignee\`: \`user_id\` must be an active staff user (otherwise a 422 on \`user_id\`). ${PERMISSION}`,
      params,
      body: AssignBody,
      response: { 200: Single(Ref(WorkflowInstance)), 404: error, 422: error },
    },
    handler: async (request) => ({ data: await workflows.assign(request.ctx, request.params.workflow, request.body) }),
  });
};
