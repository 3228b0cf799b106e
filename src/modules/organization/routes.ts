import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { keptRead } from '../../http/kept.ts';
import { ifMatch } from '../../http/preconditions.ts';
import { sendCached } from '../../http/representations.ts';
import { Ref, Single } from '../../http/schemas.ts';
import type { ChangeFeed } from '../../platform/changes.ts';
import type { Organization as Settings } from './schemas.ts';
import { Address, Organization, OrganizationPatch } from './schemas.ts';
import type { OrganizationService } from './service.ts';

export const organizationRoutes: FastifyPluginAsyncTypebox<{ organization: OrganizationService; changes: ChangeFeed }> = async (
  app,
  { organization, changes },
) => {
  // The singleton is read on many requests and changes rarely; any change in any process lets it go.
  const kept = keptRead<Settings>(changes, { max: 1 });
  const send = (request: FastifyRequest, reply: FastifyReply, data: Settings) => sendCached(request, reply, data, { data });
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
    // Not async: a kept organization is sent without waiting a tick, as the text serialized for it.
    handler: (request, reply) => kept.answer(request, reply, '', () => organization.get(request.ctx), send),
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
