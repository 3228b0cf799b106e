import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listRequest, sendList } from '../../http/list.ts';
import { ListOf } from '../../http/pagination.ts';
import { IdParam, Ref, Single, SlugParam } from '../../http/schemas.ts';
import { Meeting, MeetingListQuery } from './schemas.ts';
import type { MeetingService } from './service.ts';

export const meetingRoutes: FastifyPluginAsyncTypebox<{ meetings: MeetingService; maxPageSize: number }> = async (
  app,
  { meetings, maxPageSize },
) => {
  app.addSchema(Meeting);

  app.get('/courses/:course/sessions/:session/meetings', {
    config: { access: { scope: 'courses:read' } },
    schema: {
      operationId: 'listSessionMeetings',
      tags: ['Meetings'],
      summary: "List a session's meetings (class days)",
      description: 'Ordered by id unless `sort` says otherwise (`held_on` orders by day). A session of another course is a 404.',
      params: Type.Object({ course: SlugParam, session: IdParam }),
      querystring: MeetingListQuery,
      response: { 200: ListOf(Ref(Meeting)) },
    },
    handler: async (request, reply) => {
      const list = listRequest(request.query, { maxPageSize, defaultSort: 'id' });
      const { course, session } = request.params;
      return sendList(request, reply, list, await meetings.list(request.ctx, course, session, list));
    },
  });

  app.get('/courses/:course/sessions/:session/meetings/:meeting', {
    config: { access: { scope: 'courses:read' } },
    schema: {
      operationId: 'getSessionMeeting',
      tags: ['Meetings'],
      summary: 'Get a meeting of a session',
      description: 'A meeting of another session, or a session of another course, is the same 404 as a missing id.',
      params: Type.Object({ course: SlugParam, session: IdParam, meeting: IdParam }),
      response: { 200: Single(Ref(Meeting)) },
    },
    handler: async (request) => {
      const { course, session, meeting } = request.params;
      return { data: await meetings.get(request.ctx, course, session, meeting) };
    },
  });
};
