import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listRequest, sendList } from '../../http/list.ts';
import { ListOf } from '../../http/pagination.ts';
import { IdParam, Ref, Single, SlugParam } from '../../http/schemas.ts';
import { LearningResource, ResourceListQuery } from './schemas.ts';
import type { ResourceService } from './service.ts';

export const resourceRoutes: FastifyPluginAsyncTypebox<{ resources: ResourceService; maxPageSize: number }> = async (
  app,
  { resources, maxPageSize },
) => {
  app.addSchema(LearningResource);

  app.get('/courses/:course/sessions/:session/resources', {
    config: { access: { scope: 'courses:read' } },
    schema: {
      operationId: 'listSessionResources',
      tags: ['Learning resources'],
      summary: "List a session's published learning resources",
      description: 'Only published resources; drafts are never listed. Ordered by id unless `sort` says otherwise.',
      params: Type.Object({ course: SlugParam, session: IdParam }),
      querystring: ResourceListQuery,
      response: { 200: ListOf(Ref(LearningResource)) },
    },
    handler: async (request, reply) => {
      const list = listRequest(request.query, { maxPageSize, defaultSort: 'id' });
      const { course, session } = request.params;
      return sendList(request, reply, list, await resources.list(request.ctx, course, session, list));
    },
  });

  app.get('/courses/:course/sessions/:session/resources/:resource', {
    config: { access: { scope: 'courses:read' } },
    schema: {
      operationId: 'getSessionResource',
      tags: ['Learning resources'],
      summary: 'Get a published learning resource of a session',
      description: 'A draft resource is the same 404 as a missing id, so a client cannot tell that it exists.',
      params: Type.Object({ course: SlugParam, session: IdParam, resource: IdParam }),
      response: { 200: Single(Ref(LearningResource)) },
    },
    handler: async (request) => {
      const { course, session, resource } = request.params;
      return { data: await resources.get(request.ctx, course, session, resource) };
    },
  });
};
