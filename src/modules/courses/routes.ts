import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Page } from '../../db/list.ts';
import { keptRead } from '../../http/kept.ts';
import { booleanFilter, listRequest } from '../../http/list.ts';
import { ListOf } from '../../http/pagination.ts';
import { sendCachedPage } from '../../http/representations.ts';
import { Ref, Single, SlugParam } from '../../http/schemas.ts';
import type { ChangeFeed } from '../../platform/changes.ts';
import type { Course as CourseItem } from './schemas.ts';
import { Course, CourseListQuery } from './schemas.ts';
import type { CourseService } from './service.ts';

/**
 * Pages of the course list kept in memory (GET /courses is read far more often than the catalogue
 * changes): at most this many pages, of at most ACADEMY_MAX_PAGE_SIZE courses each. Clients ask for
 * a handful of pages; a flood of distinct ones (every `per_page`, `sort` and `updated_since`) only
 * empties them when they are this many, so memory stays bounded by this number.
 */
const KEPT_PAGES = 64;

export const courseRoutes: FastifyPluginAsyncTypebox<{ courses: CourseService; changes: ChangeFeed; maxPageSize: number }> = async (
  app,
  { courses, changes, maxPageSize },
) => {
  app.addSchema(Course);
  // A page and its total are read and kept together, so totals stay exact.
  const pages = keptRead<Page<CourseItem>>(changes, { max: KEPT_PAGES });

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
    // A kept page, by its filter, order and window; its serialized text and links are kept with it
    // (sendCachedPage). Not async: a kept page is sent without waiting a tick.
    handler: (request, reply) => {
      const list = listRequest(request.query, { maxPageSize, defaultSort: 'id' });
      const filter = { active: booleanFilter(request.query.active) };
      const key = [filter.active, list.sort, list.direction, list.page.page, list.page.perPage, list.updatedSince].join('\u001f');
      return pages.answer(
        request,
        reply,
        key,
        () => courses.list(request.ctx, filter, list),
        (request, reply, page) => sendCachedPage(request, reply, page, list.page),
      );
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
