import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ListOf, pageRequest, paginate } from '../../http/pagination.ts';
import { IdParam, Single } from '../../http/schemas.ts';
import { taskSchemas } from './schemas.ts';
import type { TaskService } from './service.ts';

export const taskRoutes: FastifyPluginAsyncTypebox<{ tasks: TaskService; maxPageSize: number; taskTypes: readonly string[] }> = async (
  app,
  { tasks, maxPageSize, taskTypes },
) => {
  const { Task, TaskDetail, TaskListQuery, TaskRun } = taskSchemas(taskTypes);
  app.addSchema(TaskRun);
  app.addSchema(Task);
  app.addSchema(TaskDetail);

  app.get('/tasks', {
    config: { access: { scope: 'tasks:read' } },
    schema: {
      operationId: 'listTasks',
      tags: ['Tasks'],
      summary: 'List scheduled tasks',
      description: 'Ordered by id. An unknown `task_type` or an `enabled` value other than true/false/1/0 is a 422.',
      querystring: TaskListQuery,
      response: { 200: ListOf(Type.Ref('Task')) },
    },
    handler: async (request, reply) => {
      const { task_type, enabled } = request.query;
      const page = pageRequest(request.query, maxPageSize);
      const result = await tasks.list(
        { taskType: task_type, enabled: enabled === undefined ? undefined : enabled === 'true' || enabled === '1' },
        page,
      );
      return paginate(request, reply, page, result);
    },
  });

  app.get('/tasks/:task', {
    config: { access: { scope: 'tasks:read' } },
    schema: {
      operationId: 'getTask',
      tags: ['Tasks'],
      summary: 'Get a scheduled task with its latest runs',
      params: Type.Object({ task: IdParam }),
      response: { 200: Single(Type.Ref('TaskDetail')), 404: Type.Ref('Error') },
    },
    handler: async (request) => ({ data: await tasks.get(request.params.task) }),
  });

  app.post('/tasks/:task/run', {
    config: { access: { scope: 'tasks:write' } },
    schema: {
      operationId: 'runTask',
      tags: ['Tasks'],
      summary: 'Run a task now',
      description:
        'Queues a run at once, skipping the cron timer; it then runs like a scheduled run (trigger `manual`). Returns 202 ' +
        'with the queued run; follow its progress in the task’s `recent_runs`. A disabled task is a 409 `task_disabled`. ' +
        'A run is attempted once: a failure is recorded on the run and the task (`last_outcome`, `last_error`).',
      params: Type.Object({ task: IdParam }),
      response: { 202: Single(Type.Ref('TaskRun')), 404: Type.Ref('Error'), 409: Type.Ref('Error') },
    },
    handler: async (request, reply) => {
      const run = await tasks.runNow(request.params.task);
      return reply.code(202).header('location', `/api/v1/tasks/${run.task_id}`).send({ data: run });
    },
  });
};
