import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { booleanFilter, listRequest } from '../../http/list.ts';
import { ListOf } from '../../http/pagination.ts';
import { sendCachedPage } from '../../http/representations.ts';
import { Ref, Single, SlugParam } from '../../http/schemas.ts';
import { Course, CourseListQuery } from './schemas.ts';
import type { CourseService } from './service.ts';

export const courseRoutes: FastifyPluginAsyncTypebox<{ courses: CourseService; maxPageSize: number }> = async (
  app,
  { courses, maxPageSize },
) => {
  app.addSchema(Course);

  app.get('/courses', {
    config: { access: { scope: 'courses:read' } },
    // Its answers are kept representations, compressed once each by sendCached: not by the plugin.
    compress: false,
    schema: {
      operationId: 'listCourses',
      tags: ['Courses'],
      summary: 'List courses (the training catalogue)',
      description:
        'Every course in every publication state, ordered by id unless `sort` says otherwise. `active=1|true` keeps the published ' +
        'courses, `active=0|false` those in every other state. `sort=price` orders by the amount in minor units.',
      querystring: CourseListQuery,
      response: { 200: ListOf(Ref(Course)) },
    },
    // The page comes from the course list's cache; its serialized text and links are kept with it
    // (sendCachedPage). Not async: a cached page is sent without waiting a tick.
    handler: (request, reply) => {
      const list = listRequest(request.query, { maxPageSize, defaultSort: 'id' });
      const page = courses.list(request.ctx, { active: booleanFilter(request.query.active) }, list);
      if (page instanceof Promise) return page.then((found) => void sendCachedPage(request, reply, found, list.page));
      sendCachedPage(request, reply, page, list.page);
    },
  });

  app.get('/courses/:course', {
    config: { access: { scope: 'courses:read' } },
    schema: {
      operationId: 'getCourse',
      tags: ['Courses'],
      summary: 'Get a course by its slug',
      description: 'An unknown slug and a malformed one are the same 404.',
      params: Type.Object({ course: SlugParam }),
      response: { 200: Single(Ref(Course)) },
    },
    handler: async (request) => ({ data: await courses.get(request.ctx, request.params.course) }),
  });
};
