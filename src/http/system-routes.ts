import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ping } from '../db/database.ts';
import { DatabaseUnavailableError, NotFoundError } from '../platform/errors.ts';
import type { Platform } from '../platform/platform.ts';
import { ApiVersion } from '../platform/versions.ts';
import { ERRORS_PAGE, errorsPage } from './error-guide.ts';
import { sendError } from './errors.ts';
import { isLoopback, type Metrics } from './metrics.ts';
import { ErrorBody, Ref } from './schemas.ts';

/** Public operational routes: version registry, probes, metrics and the OpenAPI document. */
export const systemRoutes: FastifyPluginAsyncTypebox<{ platform: Platform; metrics: Metrics }> = async (app, { platform, metrics }) => {
  app.get('/api', {
    config: { access: 'open' },
    schema: {
      operationId: 'listApiVersions',
      tags: ['Meta'],
      summary: 'List API versions with their lifecycle status',
      description:
        'Every API version with its status (`active`, `deprecated`, `sunset`), release, deprecation and sunset dates and documentation. ' +
        'Public: no token, no rate limit. Like every route, an HTTP/1.1 request without `Host` is a 400.',
      response: { 200: Type.Object({ data: Type.Array(ApiVersion) }), 400: Ref(ErrorBody) },
    },
    handler: async () => ({ data: platform.versions }),
  });

  app.get('/livez', {
    config: { access: 'open' },
    schema: { hide: true },
    handler: async () => ({ status: 'ok' }),
  });

  app.get('/readyz', {
    config: { access: 'open' },
    schema: { hide: true },
    handler: async (_request, reply) => {
      try {
        await ping(platform.database);
        return { status: 'ok' };
      } catch {
        return sendError(reply, new DatabaseUnavailableError());
      }
    },
  });

  if (platform.config.metricsPort === null) {
    // The API port is usually public, and metrics tell the runtime's version and traffic by route:
    // only this machine may read them there unless ACADEMY_METRICS_PUBLIC says otherwise.
    const everyone = platform.config.metricsPublic;
    app.get('/metrics', {
      config: { access: 'open' },
      schema: { hide: true },
      handler: async (request, reply) => {
        if (!everyone && !isLoopback(request.ip)) throw new NotFoundError();
        return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
      },
    });
  }

  app.get(ERRORS_PAGE, {
    config: { access: 'open' },
    schema: { hide: true },
    handler: async (_request, reply) =>
      reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'; base-uri 'none'")
        .send(errorsPage()),
  });

  app.get('/api/v1/openapi.json', {
    config: { access: 'open' },
    schema: { hide: true },
    handler: async () => app.swagger(),
  });
};
