import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ifMatch } from '../../http/preconditions.ts';
import { sendCached } from '../../http/representations.ts';
import { Ref, Single } from '../../http/schemas.ts';
import { Address, Organization, OrganizationPatch } from './schemas.ts';
import type { OrganizationService } from './service.ts';

export const organizationRoutes: FastifyPluginAsyncTypebox<{ organization: OrganizationService }> = async (app, { organization }) => {
  app.addSchema(Address);
  app.addSchema(Organization);
  app.addSchema(OrganizationPatch);

  app.get('/organization', {
    config: { access: { scope: 'organization:read' } },
    // Its answers are kept representations, compressed once each by sendCached: not by the plugin.
    compress: false,
    schema: {
      operationId: 'getOrganization',
      tags: ['Organization'],
      summary: 'Get the organization settings',
      response: { 200: Single(Ref(Organization)) },
    },
    // Not async: a cached organization is sent without waiting a tick, as the text serialized for it.
    handler: (request, reply) => {
      const current = organization.get(request.ctx);
      if (current instanceof Promise) return current.then((data) => void sendCached(request, reply, data, { data }));
      sendCached(request, reply, current, { data: current });
    },
  });

  app.patch('/organization', {
    config: { access: { scope: 'organization:write' } },
    schema: {
      operationId: 'updateOrganization',
      tags: ['Organization'],
      summary: 'Update the organization settings',
      description:
        'Partial update: only the fields present in the body change, including single fields of `address`. `null` clears an optional field.',
      body: Ref(OrganizationPatch),
      response: { 200: Single(Ref(Organization)) },
    },
    handler: async (request, reply) => ({ data: await organization.update(request.ctx, request.body, ifMatch(request, reply)) }),
  });
};
