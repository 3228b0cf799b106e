import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listRequest, sendList } from '../../http/list.ts';
import { ListOf } from '../../http/pagination.ts';
import { ErrorBody, Ref } from '../../http/schemas.ts';
import { ValidationError } from '../../platform/errors.ts';
import { AuditEvent, AuditEventListQuery } from './schemas.ts';
import type { AuditService } from './service.ts';

/** An RFC 3339 time the schema accepted, as the instant it names (a leap second is refused rather than guessed). */
function instant(field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw ValidationError.field(field, `The ${field} field must be an RFC 3339 date-time.`);
  return new Date(at).toISOString();
}

export const auditRoutes: FastifyPluginAsyncTypebox<{ audit: AuditService; maxPageSize: number }> = async (app, { audit, maxPageSize }) => {
  app.addSchema(AuditEvent);
  const error = Ref(ErrorBody);

  app.get('/audit-events', {
    config: { access: { scope: 'audit:read' }, errors: { 403: ['permission_denied'] } },
    schema: {
      operationId: 'listAuditEvents',
      tags: ['Audit'],
      summary: 'List audit events',
      description:
        'The audit trail: one event per change, from the API, the console, the `academy` command line or a background job, ' +
        'written in the same transaction as the change (a change that was rolled back has none). Each names who acted, through ' +
        'what, for which request and address, and what changed field by field; secrets are never shown. Newest first: the ' +
        'default order is `id` descending (unlike other lists, which go oldest first), and every order breaks ties by id. ' +
        'Events are kept for the deployment’s retention (400 days unless configured), then deleted. A token that acts for a ' +
        'user needs that user to hold the `audit.read` permission (403 `permission_denied` otherwise). ' +
        'An addition to v1: clients that do not call it are not affected.',
      querystring: AuditEventListQuery,
      response: { 200: ListOf(Ref(AuditEvent)), 403: error, 422: error },
    },
    handler: async (request, reply) => {
      const list = listRequest(request.query, { maxPageSize, defaultSort: 'id', defaultDirection: 'desc' });
      const { query } = request;
      const filter = {
        actorType: query.actor_type,
        actorId: query.actor_id,
        action: query.action,
        subjectType: query.subject_type,
        subjectId: query.subject_id,
        since: instant('since', query.since),
      };
      return sendList(request, reply, list, await audit.list(request.ctx, filter, list));
    },
  });
};
