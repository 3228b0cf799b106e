import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { create as contentDisposition } from 'content-disposition';
import { Type } from 'typebox';
import { matchesIfNoneMatch } from '../../http/conventions.ts';
import { listRequest, sendList } from '../../http/list.ts';
import { ListOf } from '../../http/pagination.ts';
import { ErrorBody, FileResponse, IdParam, Ref, Single } from '../../http/schemas.ts';
import { REPORT_TYPE_TABLE, Report, ReportListQuery, ReportRequest } from './schemas.ts';
import type { ReportService } from './service.ts';
import { MEDIA_TYPES } from './writers.ts';

/** A report file's strong ETag: the first 32 hex digits of its SHA-256. */
const fileTag = (sha256: string) => `"${sha256.slice(0, 32)}"`;

export const reportRoutes: FastifyPluginAsyncTypebox<{ reports: ReportService; maxPageSize: number }> = async (
  app,
  { reports, maxPageSize },
) => {
  app.addSchema(Report);
  app.addSchema(ReportRequest);
  const error = Ref(ErrorBody);
  const report = Ref(Report);

  app.get('/reports', {
    config: { access: { scope: 'reports:read' } },
    schema: {
      operationId: 'listReports',
      tags: ['Reports'],
      summary: 'List reports',
      description: 'Every report requested, by id unless `sort` says otherwise. An unknown `type` or `status` is a 422.',
      querystring: ReportListQuery,
      response: { 200: ListOf(report), 422: error },
    },
    handler: async (request, reply) => {
      const list = listRequest(request.query, { maxPageSize, defaultSort: 'id' });
      return sendList(
        request,
        reply,
        list,
        await reports.list(request.ctx, { type: request.query.type, status: request.query.status }, list),
      );
    },
  });

  app.post('/reports', {
    config: { access: { scope: 'reports:write' }, location: true },
    schema: {
      operationId: 'requestReport',
      tags: ['Reports'],
      summary: 'Request a report',
      description:
        'Always asynchronous: answers 202 with the report in `requested` and its `Location`; a background job generates it, ' +
        'streaming rows from the database to the file, with `progress` and `row_count` visible while you poll ' +
        '`GET /reports/{report}`, through `generating → generated → stored → available` (or `failed`, with `failure_reason`). ' +
        '`export.completed` is sent to webhooks when it is available. A parameter the type does not take is a 422.\n\n' +
        '| type | rows | parameters | kept for |\n|---|---|---|---|\n' +
        REPORT_TYPE_TABLE,
      body: Ref(ReportRequest),
      response: { 202: Single(report), 422: error },
    },
    handler: async (request, reply) => {
      const data = await reports.request(request.ctx, request.body);
      return reply.code(202).header('location', `/api/v1/reports/${data.id}`).send({ data });
    },
  });

  app.get('/reports/:report', {
    config: { access: { scope: 'reports:read' } },
    schema: {
      operationId: 'getReport',
      tags: ['Reports'],
      summary: 'Get a report (poll its status)',
      description: 'Its status, progress and, once available, `download_path`.',
      params: Type.Object({ report: IdParam }),
      response: { 200: Single(report), 404: error },
    },
    handler: async (request) => ({ data: await reports.get(request.ctx, request.params.report) }),
  });

  app.get('/reports/:report/download', {
    config: { access: { scope: 'reports:read' }, errors: { 409: ['report_not_available'] } },
    schema: {
      operationId: 'downloadReport',
      tags: ['Reports'],
      summary: 'Download a report’s file',
      description:
        'The CSV or XLSX file, streamed, with `Content-Disposition: attachment`, an `ETag` and `X-Content-Type-Options: nosniff`; ' +
        'a matching `If-None-Match` gets 304 without the file. ' +
        'In every state but `available` a 409 `report_not_available` (an expired report’s file is gone).',
      params: Type.Object({ report: IdParam }),
      response: {
        200: FileResponse('The report file, in its format’s media type.', Object.values(MEDIA_TYPES)),
        304: Type.Null({ description: 'Not modified: the `If-None-Match` ETag matches.' }),
        404: error,
        409: error,
      },
    },
    handler: async (request, reply) => {
      // A client whose copy is current gets a 304 before the file is opened (the ETag is the file's hash).
      const current = await reports.get(request.ctx, request.params.report);
      if (current.status === 'available' && current.sha256) {
        const etag = fileTag(current.sha256);
        if (matchesIfNoneMatch(request.headers['if-none-match'], etag)) {
          reply.header('etag', etag);
          reply.header('cache-control', 'private, no-cache');
          return reply.code(304).send(null);
        }
      }
      const { report: data, stream, size } = await reports.open(request.ctx, request.params.report);
      const day = (data.generated_at ?? data.created_at).slice(0, 10);
      reply.type(MEDIA_TYPES[data.format]);
      reply.header('content-length', String(size));
      reply.header('content-disposition', contentDisposition(`${data.type}-${day}-${data.id}.${data.format}`, { type: 'attachment' }));
      reply.header('etag', fileTag(data.sha256 ?? ''));
      reply.header('cache-control', 'private, no-cache');
      return reply.send(stream as never);
    },
  });
};
