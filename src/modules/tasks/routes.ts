import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { booleanFilter, listRequest, sendList } from '../../http/list.ts';
import { ListOf } from '../../http/pagination.ts';
import { ErrorBody, IdParam, Ref, Single } from '../../http/schemas.ts';
import { Task, TaskDetail, TaskRun, taskSchemas } from './schemas.ts';
import type { TaskService } from './service.ts';

export const taskRoutes: FastifyPluginAsyncTypebox<{ tasks: TaskService; maxPageSize: number; taskTypes: readonly string[] }> = async (
  app,
  { tasks, maxPageSize, taskTypes },
) => {
  const documented = taskSchemas(taskTypes);
  app.addSchema(documented.TaskRun);
  app.addSchema(documented.Task);
  app.addSchema(documented.TaskDetail);
  const error = Ref(ErrorBody);
  const params = Type.Object({ task: IdParam });

  app.get('/tasks', {
    config: { access: { scope: 'tasks:read' } },
    schema: {
      operationId: 'listTasks',
      tags: ['Tasks'],
      summary: 'List scheduled tasks',
      description:
        'Ordered by id unless `sort` says otherwise. An unknown `task_type` or an `enabled` value other than true/false/1/0 is a 422.',
      querystring: documented.TaskListQuery,
      response: { 200: ListOf(Ref(Task)) },
    },
    handler: async (request, reply) => {
      const list = listRequest(request.query, { maxPageSize, defaultSort: 'id' });
      const filter = { taskType: request.query.task_type, enabled: booleanFilter(request.query.enabled) };
      return sendList(request, reply, list, await tasks.list(request.ctx, filter, list));
    },
  });

  app.get('/tasks/:task', {
    config: { access: { scope: 'tasks:read' } },
    schema: {
      operationId: 'getTask',
      tags: ['Tasks'],
      summary: 'Get a scheduled task with its latest runs',
      params,
      response: { 200: Single(Ref(TaskDetail)), 404: error },
    },
    handler: async (request) => ({ data: await tasks.get(request.ctx, request.params.task) }),
  });

  app.post('/tasks/:task/run', {
    config: { access: { scope: 'tasks:write' }, errors: { 409: ['task_disabled'] }, location: true },
    schema: {
      operationId: 'runTask',
      tags: ['Tasks'],
      summary: 'Run a task now',
      description:
        'Queues a run at once, skipping the cron timer; it then runs like a scheduled run (trigger `manual`). Returns 202 ' +
        'with the queued run and its `Location`, `GET /tasks/{task}/runs/{run}`, to poll until it has finished. A disabled task is a 409 `task_disabled`. ' +
        'A run is attempted once: a failure is recorded on the run and the task (`last_outcome`, `last_error`).',
      params,
      response: { 202: Single(Ref(TaskRun)), 404: error, 409: error },
    },
    handler: async (request, reply) => {
      const run = await tasks.runNow(request.ctx, request.params.task);
      return reply.code(202).header('location', `/api/v1/tasks/${run.task_id}/runs/${run.id}`).send({ data: run });
    },
  });

  app.get('/tasks/:task/runs/:run', {
    config: { access: { scope: 'tasks:read' } },
    schema: {
      operationId: 'getTaskRun',
      tags: ['Tasks'],
      summary: 'Get one run of a task',
      description: 'Where `POST /tasks/{task}/run` points (`Location`): poll it until its status says the run has finished.',
      params: Type.Object({ task: IdParam, run: IdParam }),
      response: { 200: Single(Ref(TaskRun)), 404: error },
    },
    handler: async (request) => ({ data: await tasks.getRun(request.ctx, request.params.task, request.params.run) }),
  });
};
