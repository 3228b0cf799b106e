import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ListOf, pageRequest, paginate } from '../../http/pagination.ts';
import { IdParam, Single } from '../../http/schemas.ts';
import { EventEnvelope, IntegrationMessage, MessageListQuery } from './schemas.ts';
import type { IntegrationService } from './service.ts';

export const integrationRoutes: FastifyPluginAsyncTypebox<{ integrations: IntegrationService; maxPageSize: number }> = async (
  app,
  { integrations, maxPageSize },
) => {
  app.addSchema(EventEnvelope);
  app.addSchema(IntegrationMessage);
  const message = Type.Ref('IntegrationMessage');
  const error = Type.Ref('Error');
  const params = Type.Object({ message: IdParam });

  app.get('/integrations', {
    config: { access: { scope: 'integration-messages:read' } },
    schema: {
      operationId: 'listIntegrationMessages',
      tags: ['Integrations'],
      summary: 'List integration messages',
      description:
        'Messages sent to outbound integrations, one per subscribed event and integration, newest first. An unknown `status` is a 422.',
      querystring: MessageListQuery,
      response: { 200: ListOf(message), 422: error },
    },
    handler: async (request, reply) => {
      const page = pageRequest(request.query, maxPageSize);
      const result = await integrations.listMessages(request.query, page);
      return paginate(request, reply, page, result);
    },
  });

  app.get('/integrations/:message', {
    config: { access: { scope: 'integration-messages:read' } },
    schema: {
      operationId: 'getIntegrationMessage',
      tags: ['Integrations'],
      summary: 'Get an integration message',
      params,
      response: { 200: Single(message), 404: error },
    },
    handler: async (request) => ({ data: await integrations.getMessage(request.params.message) }),
  });

  app.post('/integrations/:message/retry', {
    config: { access: { scope: 'integration-messages:write' } },
    schema: {
      operationId: 'retryIntegrationMessage',
      tags: ['Integrations'],
      summary: 'Retry a failed integration message',
      description:
        'Queues a `failed` message again for a new series of delivery attempts and answers 202 with the message (status `queued`). A message in any other status, or one whose integration is disabled, is a 409 `not_retryable`.',
      params,
      response: { 202: Single(message), 404: error, 409: error },
    },
    handler: async (request, reply) => {
      const data = await integrations.retry(request.params.message);
      return reply.code(202).send({ data });
    },
  });
};
