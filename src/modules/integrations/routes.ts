import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listRequest, sendList } from '../../http/list.ts';
import { ListOf } from '../../http/pagination.ts';
import { ErrorBody, IdParam, Ref, Single } from '../../http/schemas.ts';
import { EventEnvelope, IntegrationMessage, MessageListQuery } from './schemas.ts';
import type { IntegrationService } from './service.ts';

export const integrationRoutes: FastifyPluginAsyncTypebox<{ integrations: IntegrationService; maxPageSize: number }> = async (
  app,
  { integrations, maxPageSize },
) => {
  app.addSchema(EventEnvelope);
  app.addSchema(IntegrationMessage);
  const message = Ref(IntegrationMessage);
  const error = Ref(ErrorBody);
  const params = Type.Object({ message: IdParam });

  app.get('/integrations', {
    config: { access: { scope: 'integration-messages:read' } },
    schema: {
      operationId: 'listIntegrationMessages',
      tags: ['Integrations'],
      summary: 'List integration messages',
      description:
        'Messages sent to outbound integrations, one per subscribed event and integration, in id order (the order they were made in) unless `sort`/`direction` say otherwise: `?direction=desc` lists the newest first. An unknown `status` is a 422.',
      querystring: MessageListQuery,
      response: { 200: ListOf(message), 422: error },
    },
    handler: async (request, reply) => {
      const list = listRequest(request.query, { maxPageSize, defaultSort: 'id' });
      const filter = { integrationKey: request.query.integration_key, status: request.query.status };
      return sendList(request, reply, list, await integrations.listMessages(request.ctx, filter, list));
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
    handler: async (request) => ({ data: await integrations.getMessage(request.ctx, request.params.message) }),
  });

  app.post('/integrations/:message/retry', {
    config: { access: { scope: 'integration-messages:write' }, errors: { 409: ['not_retryable'] } },
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
      const data = await integrations.retry(request.ctx, request.params.message);
      return reply.code(202).send({ data });
    },
  });
};
