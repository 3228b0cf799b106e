import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listRequest, sendList } from '../../http/list.ts';
import { ListOf } from '../../http/pagination.ts';
import { ErrorBody, IdParam, Ref, Single } from '../../http/schemas.ts';
import { Student, StudentListQuery } from './schemas.ts';
import type { StudentService } from './service.ts';

export const studentRoutes: FastifyPluginAsyncTypebox<{ students: StudentService; maxPageSize: number }> = async (
  app,
  { students, maxPageSize },
) => {
  app.addSchema(Student);

  app.get('/students', {
    config: { access: { scope: 'students:read' } },
    schema: {
      operationId: 'listStudents',
      tags: ['Students'],
      summary: 'List students',
      description:
        'Users with at least one course application who are not staff. `search` matches the name or the email, ' +
        'case-insensitively; `status` filters on email verification. Ordered by id unless `sort` says otherwise.',
      querystring: StudentListQuery,
      response: { 200: ListOf(Ref(Student)) },
    },
    handler: async (request, reply) => {
      const list = listRequest(request.query, { maxPageSize, defaultSort: 'id' });
      const filter = { search: request.query.search, status: request.query.status };
      return sendList(request, reply, list, await students.list(request.ctx, filter, list));
    },
  });

  app.get('/students/:student', {
    config: { access: { scope: 'students:read' } },
    schema: {
      operationId: 'getStudent',
      tags: ['Students'],
      summary: 'Get a student',
      description:
        'A staff user, a user without a course application and a missing id are one and the same 404, so the ' +
        'response never tells which users exist.',
      params: Type.Object({ student: IdParam }),
      response: { 200: Single(Ref(Student)), 404: Ref(ErrorBody) },
    },
    handler: async (request) => ({ data: await students.get(request.ctx, request.params.student) }),
  });
};
