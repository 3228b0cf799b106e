import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type TSchema, Type } from 'typebox';
import { ErrorBody, Ref, Single } from '../../http/schemas.ts';
import { HealthCheckResult, HealthReport } from './schemas.ts';
import type { HealthService } from './service.ts';

const CHECK_NAME = Type.String({ maxLength: 64, description: 'The name of a check, e.g. `database`.' });

/** A 503 is the report of a failing check, or the error `unavailable` when the database cannot check the token. */
const failing = <T extends TSchema>(report: T) => Type.Union([Single(report), Ref(ErrorBody)]);

export const healthRoutes: FastifyPluginAsyncTypebox<{ health: HealthService }> = async (app, { health }) => {
  app.addSchema(HealthCheckResult);
  app.addSchema(HealthReport);

  app.get('/health', {
    config: { access: { scope: 'health:read' } },
    schema: {
      operationId: 'getHealth',
      tags: ['Health'],
      summary: 'Run every enabled health check',
      description:
        'Runs every enabled check that applies to this deployment concurrently, each under its own timeout (a check that ' +
        'times out is `fail`). The overall `status` is the worst of the checks. The response is 200 for `pass` and `warn`, ' +
        '503 (with the same body) for `fail`. The Redis check is left out when no Redis is configured. While the database ' +
        'cannot be reached, the `database` check fails; a 503 with the error `unavailable` means the token itself could not be checked.',
      response: { 200: Single(Ref(HealthReport)), 503: failing(Ref(HealthReport)) },
    },
    handler: async (request, reply) => {
      const report = await health.runAll(request.ctx);
      return reply
        .code(report.status === 'fail' ? 503 : 200)
        .header('cache-control', 'no-store')
        .send({ data: report });
    },
  });

  app.get('/health/:check', {
    config: { access: { scope: 'health:read' } },
    schema: {
      operationId: 'getHealthCheck',
      tags: ['Health'],
      summary: 'Run one health check',
      description:
        'Runs one enabled check by name. 200 for `pass` and `warn`, 503 (with the same body) for `fail`; 404 for a name ' +
        'that is unknown, disabled or does not apply to this deployment. While the database cannot be reached, the `database` ' +
        'check fails and the others answer the error `unavailable` (their configuration is in the database).',
      params: Type.Object({ check: CHECK_NAME }),
      response: { 200: Single(Ref(HealthCheckResult)), 503: failing(Ref(HealthCheckResult)), 404: Ref(ErrorBody) },
    },
    handler: async (request, reply) => {
      const result = await health.runOne(request.ctx, request.params.check);
      return reply
        .code(result.status === 'fail' ? 503 : 200)
        .header('cache-control', 'no-store')
        .send({ data: result });
    },
  });
};
