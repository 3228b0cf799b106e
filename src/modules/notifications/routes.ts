import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { listRequest, sendList } from '../../http/list.ts';
import { ListOf } from '../../http/pagination.ts';
import { ErrorBody, IdParam, Ref, Single } from '../../http/schemas.ts';
import { Notification, NotificationListQuery } from './schemas.ts';
import type { NotificationService } from './service.ts';

export const notificationRoutes: FastifyPluginAsyncTypebox<{ notifications: NotificationService; maxPageSize: number }> = async (
  app,
  { notifications, maxPageSize },
) => {
  app.addSchema(Notification);
  const error = Ref(ErrorBody);

  app.get('/notifications', {
    config: { access: { scope: 'identity-notifications:read' } },
    schema: {
      operationId: 'listNotifications',
      tags: ['Notifications'],
      summary: 'List identity notifications',
      description:
        'The emails of the staff lifecycle: exactly one per move (invite, activation, suspend, reactivate, archive), queued in the ' +
        'same transaction as the move and delivered in the background, with retries. Ordered by id unless `sort` says otherwise. ' +
        'An unknown `type` or `status` is a 422.',
      querystring: NotificationListQuery,
      response: { 200: ListOf(Ref(Notification)), 422: error },
    },
    handler: async (request, reply) => {
      const list = listRequest(request.query, { maxPageSize, defaultSort: 'id' });
      const filter = { type: request.query.type, status: request.query.status, userId: request.query.user_id };
      return sendList(request, reply, list, await notifications.list(request.ctx, filter, list));
    },
  });

  app.get('/notifications/:notification', {
    config: { access: { scope: 'identity-notifications:read' } },
    schema: {
      operationId: 'getNotification',
      tags: ['Notifications'],
      summary: 'Get an identity notification',
      description: 'Its delivery status, attempts and last error. The email’s body (and an invitation’s link) is never shown.',
      params: Type.Object({ notification: IdParam }),
      response: { 200: Single(Ref(Notification)), 404: error },
    },
    handler: async (request) => ({ data: await notifications.get(request.ctx, request.params.notification) }),
  });
};
