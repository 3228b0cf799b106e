import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listRequest, sendList } from '../../http/list.ts';
import { ListOf } from '../../http/pagination.ts';
import { IdParam, Ref, Single, SlugParam } from '../../http/schemas.ts';
import { Assessment, AssessmentListQuery } from './schemas.ts';
import type { AssessmentService } from './service.ts';

export const assessmentRoutes: FastifyPluginAsyncTypebox<{ assessments: AssessmentService; maxPageSize: number }> = async (
  app,
  { assessments, maxPageSize },
) => {
  app.addSchema(Assessment);

  app.get('/courses/:course/sessions/:session/assessments', {
    config: { access: { scope: 'courses:read' } },
    schema: {
      operationId: 'listSessionAssessments',
      tags: ['Assessments'],
      summary: "List a session's assessments",
      description: 'Ordered by id unless `sort` says otherwise. A session of another course is a 404.',
      params: Type.Object({ course: SlugParam, session: IdParam }),
      querystring: AssessmentListQuery,
      response: { 200: ListOf(Ref(Assessment)) },
    },
    handler: async (request, reply) => {
      const list = listRequest(request.query, { maxPageSize, defaultSort: 'id' });
      const { course, session } = request.params;
      return sendList(request, reply, list, await assessments.list(request.ctx, course, session, list));
    },
  });

  app.get('/courses/:course/sessions/:session/assessments/:assessment', {
    config: { access: { scope: 'courses:read' } },
    schema: {
      operationId: 'getSessionAssessment',
      tags: ['Assessments'],
      summary: 'Get an assessment of a session',
      description: 'An assessment of another session, or a session of another course, is the same 404 as a missing id.',
      params: Type.Object({ course: SlugParam, session: IdParam, assessment: IdParam }),
      response: { 200: Single(Ref(Assessment)) },
    },
    handler: async (request) => {
      const { course, session, assessment } = request.params;
      return { data: await assessments.get(request.ctx, course, session, assessment) };
    },
  });
};
