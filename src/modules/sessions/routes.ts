import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { keptRead } from '../../http/kept.ts';
import { listRequest, sendList } from '../../http/list.ts';
import { ListOf } from '../../http/pagination.ts';
import { sendCached } from '../../http/representations.ts';
import { IdParam, Ref, Single, SlugParam } from '../../http/schemas.ts';
import type { ChangeFeed } from '../../platform/changes.ts';
import { presentSession } from './present.ts';
import type { SessionRow } from './repository.ts';
import { Session, SessionListQuery } from './schemas.ts';
import type { SessionService } from './service.ts';

/** Sessions kept in memory as stored, each with the text sent for it (a request's course and id). */
const KEPT_SESSIONS = 1_000;

export const sessionRoutes: FastifyPluginAsyncTypebox<{ sessions: SessionService; changes: ChangeFeed; maxPageSize: number }> = async (
  app,
  { sessions, changes, maxPageSize },
) => {
  app.addSchema(Session);
  // Kept while no session or course changes (their repositories announce every write).
  const rows = keptRead<SessionRow>(changes, { max: KEPT_SESSIONS });

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
    // Not async: a kept session is sent without waiting a tick, as the text kept for it (sendCached).
    // One that is not there is a 404 every time (never kept).
    handler: (request, reply) => {
      const { course, session } = request.params;
      return rows.answer(request, reply, `${course}\u001f${session}`, () => sessions.resolve(request.ctx, course, session), send);
    },
  });

  /**
   * A session with its derived fields read now; the text kept with the row is told apart by the
   * registration status, the one field that moves with the clock.
   */
  function send(request: FastifyRequest, reply: FastifyReply, row: SessionRow): FastifyReply {
    const data = presentSession(row, request.ctx.clock.now());
    return sendCached(request, reply, row, { data }, data.registration_status);
  }
};
