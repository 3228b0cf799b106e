import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { listRequest, sendList } from '../../http/list.ts';
import { ListOf } from '../../http/pagination.ts';
import { sendCached } from '../../http/representations.ts';
import { IdParam, Ref, Single, SlugParam } from '../../http/schemas.ts';
import { NotFoundError } from '../../platform/errors.ts';
import { presentSession } from './present.ts';
import type { SessionRow } from './repository.ts';
import { Session, SessionListQuery } from './schemas.ts';
import type { SessionService } from './service.ts';

export const sessionRoutes: FastifyPluginAsyncTypebox<{ sessions: SessionService; maxPageSize: number }> = async (
  app,
  { sessions, maxPageSize },
) => {
  app.addSchema(Session);

  app.get('/courses/:course/sessions', {
    config: { access: { scope: 'courses:read' } },
    schema: {
      operationId: 'listCourseSessions',
      tags: ['Sessions'],
      summary: "List a course's training sessions (intakes)",
      description: 'Ordered by id unless `sort` says otherwise. An unknown or malformed course slug is a 404.',
      params: Type.Object({ course: SlugParam }),
      querystring: SessionListQuery,
      response: { 200: ListOf(Ref(Session)) },
    },
    handler: async (request, reply) => {
      const list = listRequest(request.query, { maxPageSize, defaultSort: 'id' });
      return sendList(request, reply, list, await sessions.list(request.ctx, request.params.course, list));
    },
  });

  app.get('/courses/:course/sessions/:session', {
    config: { access: { scope: 'courses:read' } },
    // Its answers are kept representations, compressed once each by sendCached: not by the plugin.
    compress: false,
    schema: {
      operationId: 'getCourseSession',
      tags: ['Sessions'],
      summary: 'Get a training session of a course',
      description: 'A session of another course is the same 404 as a missing one.',
      params: Type.Object({ course: SlugParam, session: IdParam }),
      response: { 200: Single(Ref(Session)) },
    },
    // Not async: a cached session is sent without waiting a tick, as the text kept for it (sendCached).
    handler: (request, reply) => {
      const row = sessions.cached(request.ctx, request.params.course, request.params.session);
      if (row instanceof Promise) return row.then((found) => void send(request, reply, found));
      send(request, reply, row);
    },
  });

  /**
   * A session with its derived fields read now; the text kept with the row is told apart by the
   * registration status, the one field that moves with the clock.
   */
  function send(request: FastifyRequest, reply: FastifyReply, row: SessionRow | undefined): FastifyReply {
    if (!row) throw new NotFoundError();
    const data = presentSession(row, request.ctx.clock.now());
    return sendCached(request, reply, row, { data }, data.registration_status);
  }
};
