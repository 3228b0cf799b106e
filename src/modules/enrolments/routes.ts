import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listRequest, sendList } from '../../http/list.ts';
import { ListOf } from '../../http/pagination.ts';
import { IdParam, Ref, Single } from '../../http/schemas.ts';
import { Enrolment, EnrolmentListQuery } from './schemas.ts';
import type { EnrolmentService } from './service.ts';

export const enrolmentRoutes: FastifyPluginAsyncTypebox<{ enrolments: EnrolmentService; maxPageSize: number }> = async (
  app,
  { enrolments, maxPageSize },
) => {
  app.addSchema(Enrolment);

  app.get('/enrolments', {
    config: { access: { scope: 'enrolments:read' } },
    schema: {
      operationId: 'listEnrolments',
      tags: ['Enrolments'],
      summary: 'List enrolments',
      description:
        'Ordered by id unless `sort` says otherwise. `course_id` matches the course of the enrolment’s session. Enrolments are ' +
        'created, cancelled and completed in the administration; the API only reads them.',
      querystring: EnrolmentListQuery,
      response: { 200: ListOf(Ref(Enrolment)) },
    },
    handler: async (request, reply) => {
      const list = listRequest(request.query, { maxPageSize, defaultSort: 'id' });
      const { student_id: studentId, course_id: courseId, status } = request.query;
      return sendList(request, reply, list, await enrolments.list(request.ctx, { studentId, courseId, status }, list));
    },
  });

  app.get('/enrolments/:enrolment', {
    config: { access: { scope: 'enrolments:read' } },
    schema: {
      operationId: 'getEnrolment',
      tags: ['Enrolments'],
      summary: 'Get an enrolment',
      params: Type.Object({ enrolment: IdParam }),
      response: { 200: Single(Ref(Enrolment)) },
    },
    handler: async (request) => ({ data: await enrolments.get(request.ctx, request.params.enrolment) }),
  });
};
